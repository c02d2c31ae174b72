import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { redactSecrets } from '../../../../src/core/util/secrets';
import { plantSecrets } from '../../../support/plantedSecrets';

describe('redactSecrets', () => {
  const planted = plantSecrets();

  it('hides a key file quoted whole, cut short, or as V8 quotes a JSON.parse failure', () => {
    const text = readFileSync(planted.keyFile, 'utf8');
    for (const quoted of [text, text.slice(0, 900), JSON.stringify(text), `Unexpected token 'a', "${text.slice(0, 1400)}"... is not valid JSON`]) {
      const out = redactSecrets(quoted, {});
      assert.deepEqual(planted.leaks(out), [], out);
    }
    let thrown = '';
    try {
      JSON.parse(readFileSync(planted.tornKeyFile, 'utf8'));
    } catch (e) {
      thrown = String((e as Error).stack);
    }
    assert.deepEqual(planted.leaks(redactSecrets(thrown, {})), []);
  });

  it('hides access tokens, bearer tokens and the key file path; leaves ordinary text alone', () => {
    const env = planted.env();
    const out = redactSecrets(`token ${planted.token}, Authorization: Bearer abc.DEF-123_x, file ${planted.keyFile}`, env);
    assert.deepEqual(planted.leaks(out), []);
    assert.equal(out, 'token [redacted], Authorization: Bearer [redacted], file [redacted]');
    const plain = 'cannot reach projects/p/subscriptions/s: the Pub/Sub emulator at 127.0.0.1:8085 is not running';
    assert.equal(redactSecrets(plain, env), plain, 'the emulator host is not a secret');
    assert.equal(redactSecrets('{"private_key": "k", "type": "service_account"}', {}), '{"private_key": "[redacted]", "type": "service_account"}');
  });
});
