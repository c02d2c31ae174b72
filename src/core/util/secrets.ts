/**
 * Credentials never leave SeqScope in what it prints or writes. The Google client libraries put
 * what they were reading into their errors: a service-account key file that is not valid JSON
 * makes V8's JSON.parse quote the text before the fault (the private key, when the fault is after
 * it), and Node's uncaught-exception printer shows the whole source line. Every library error
 * SeqScope passes on goes through redactSecrets first.
 *
 * What counts as a secret: a PEM block (also one cut short), an OAuth access token (`ya29.…`), a
 * bearer token, the value of a JSON key-file field that holds a credential, and the path of the
 * key file that GOOGLE_APPLICATION_CREDENTIALS names. The emulator host is not a secret.
 */

/** What a secret is replaced by. */
export const REDACTED = '[redacted]';

/** JSON fields of service-account, authorized-user and external-account files that hold credentials. */
const SECRET_FIELDS = ['private_key', 'private_key_id', 'client_secret', 'refresh_token', 'access_token', 'id_token', 'client_email'];

const PATTERNS: RegExp[] = [
  // A PEM block, whole or cut short (an error quoting the file may stop anywhere in it).
  /-----BEGIN [A-Z0-9 ]*-----[\s\S]*?(?:-----END [A-Z0-9 ]*-----|$)/g,
  // Google OAuth 2.0 access tokens and refresh tokens.
  /\bya29\.[\w.-]+/g,
  /\b1\/\/[\w.-]{20,}/g,
  /\b(Bearer)\s+[\w.~+/-]+=*/gi,
  // "private_key": "…", also with escaped quotes and cut short.
  new RegExp(`(\\\\?"(?:${SECRET_FIELDS.join('|')})\\\\?"\\s*:\\s*)\\\\?"(?:[^"\\\\]|\\\\[^"])*(?:\\\\?"|$)`, 'g'),
];

/**
 * `text` with every credential replaced by [redacted]. `env` gives the key file's path to hide
 * (GOOGLE_APPLICATION_CREDENTIALS); tests pass their own.
 */
export function redactSecrets(text: string, env: NodeJS.ProcessEnv = process.env): string {
  let out = text;
  for (const re of PATTERNS)
    out = out.replace(re, (_m, lead?: string) =>
      typeof lead === 'string' && lead.length ? (/^bearer$/i.test(lead) ? `${lead} ${REDACTED}` : `${lead}"${REDACTED}"`) : REDACTED,
    );
  const keyFile = (env.GOOGLE_APPLICATION_CREDENTIALS ?? '').trim();
  if (keyFile.length >= 4) out = out.split(keyFile).join(REDACTED);
  return out;
}
