/**
 * Credentials planted for the secret-scan tests: a service-account key file with a real RSA
 * private key, in three shapes (valid; cut by a control character after the private key, which
 * makes V8's JSON.parse quote everything before it; not JSON at all), an OAuth access token in the
 * variables gcloud and some tools read, and the key file's path. `leaks(text)` names every planted
 * secret found in a text.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface PlantedSecrets {
  readonly dir: string;
  /** A well-formed service-account key file. */
  readonly keyFile: string;
  /** The same, with a control character after the private key: not valid JSON. */
  readonly tornKeyFile: string;
  /** The private key, then text that is not JSON. */
  readonly notJsonKeyFile: string;
  readonly token: string;
  /** Environment variables that plant them (the key file: `keyFile` unless given). */
  env(keyFile?: string): NodeJS.ProcessEnv;
  /** The planted secrets found in `text`, by name (empty: none). */
  leaks(text: string): string[];
}

export function plantSecrets(): PlantedSecrets {
  const dir = mkdtempSync(join(tmpdir(), 'seqscope-planted-keys-'));
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const clientEmail = 'planted-secret@seqscope-planted.iam.gserviceaccount.com';
  const keyId = 'planted5ec7e7a1b2c3d4e5f60718293a4b5c6d7e8f9';
  const token = 'ya29.a0PlantedAccessToken-5eCr3t_Zz9xYw8vUt7sRq6pOn5mLk4jIh3gFe2dCb1';
  const key = {
    type: 'service_account',
    project_id: 'seqscope-planted',
    private_key_id: keyId,
    private_key: pem,
    client_email: clientEmail,
    client_id: '118000000000000000001',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: 'https://oauth2.googleapis.com/token',
  };
  const text = JSON.stringify(key, null, 2);
  const keyFile = join(dir, 'service-account.json');
  writeFileSync(keyFile, text);
  const tornKeyFile = join(dir, 'torn-service-account.json');
  const at = text.indexOf('"client_email"');
  writeFileSync(tornKeyFile, `${text.slice(0, at)}"note": "a\u0001b",\n  ${text.slice(at)}`);
  const notJsonKeyFile = join(dir, 'not-json.json');
  writeFileSync(notJsonKeyFile, `${pem}\nclient_email = ${clientEmail}\n`);
  // Lines of the key's body: any one of them in an output is a leak.
  const pemLines = pem.split('\n').filter((l) => /^[A-Za-z0-9+/=]{40,}$/.test(l));
  const secrets: [string, string][] = [
    ['the private key (first line of its body)', pemLines[0]],
    ['the private key (a middle line)', pemLines[Math.floor(pemLines.length / 2)]],
    ['the private key (last full line)', pemLines[pemLines.length - 1]],
    ['the client_email', clientEmail],
    ['the private_key_id', keyId],
    ['the access token', token],
    ['the access token (without its prefix)', token.slice(5)],
    ["the key file's folder", dir],
  ];
  return {
    dir,
    keyFile,
    tornKeyFile,
    notJsonKeyFile,
    token,
    env: (file = keyFile) => ({
      GOOGLE_APPLICATION_CREDENTIALS: file,
      CLOUDSDK_AUTH_ACCESS_TOKEN: token,
      GOOGLE_OAUTH_ACCESS_TOKEN: token,
      GOOGLE_CLOUD_PROJECT: 'seqscope-planted',
    }),
    leaks: (t) => secrets.filter(([, s]) => t.includes(s)).map(([name]) => name),
  };
}
