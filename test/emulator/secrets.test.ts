/**
 * Planted credentials (see test/support/plantedSecrets.ts) with the emulator on: `seqscope record`
 * never copies them into the recording, its --json metadata, what it prints (with
 * SEQSCOPE_DEBUG=1), nor a replay of the recording. The other outputs are scanned in
 * test/unit/cli/secrets.test.ts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { plantSecrets } from '../support/plantedSecrets';
import { runCli, startCli, tempDir, uniqueId, useEmulator, waitFor } from './emulatorSupport';

describe('emulator: planted credentials stay out of recordings', function () {
  const env = useEmulator();

  it('record (plain and gzip) with a key file, an access token and SEQSCOPE_DEBUG=1 set: nothing of them in the file, its metadata or the output', async () => {
    const { emu, conn } = env;
    const planted = plantSecrets();
    const plantedEnv = { ...planted.env(), SEQSCOPE_DEBUG: '1' };
    const topic = uniqueId('secrets');
    const [t] = await conn.client.createTopic(topic);
    const dir = tempDir();
    for (const name of ['rec.jsonl', 'rec.jsonl.gz']) {
      const out = join(dir, name);
      const rec = await startCli(emu, ['record', '--topic', topic, '--out', out, '--max-messages', '20', '--duration', '60s', '--json'], undefined, plantedEnv);
      await waitFor('the tap', () => /tapping/.test(rec.stderr) || rec.child.exitCode !== null);
      await Promise.all(Array.from({ length: 20 }, (_, i) => t.publishMessage({ data: Buffer.from(`m${i}`), attributes: { n: String(i) } })));
      assert.equal(await rec.exited, 0, rec.stderr);
      assert.equal(JSON.parse(rec.stdout).recorded.acked, 20);
      const replayed = await runCli(emu, ['replay', out, '--seq', 'attribute:n', '--json', '--export', join(dir, `${name}.trace.csv`)], undefined, plantedEnv);
      assert.equal(replayed.code, 0, replayed.stderr);
      for (const [what, text] of [
        ['the recording', (name.endsWith('.gz') ? gunzipSync(readFileSync(out)) : readFileSync(out)).toString()],
        ['its metadata (--json)', rec.stdout],
        ['what record printed', rec.stderr],
        ['the replay', replayed.stdout + replayed.stderr + readFileSync(join(dir, `${name}.trace.csv`), 'utf8')],
      ]) {
        assert.deepEqual(planted.leaks(text), [], `${what} (${name}) holds a planted secret`);
      }
    }
  });
});
