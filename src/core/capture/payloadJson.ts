/** A message's payload (`data`, base64) read as JSON, for `json:<path>` options. */
import { base64Bytes } from './mdp3';

export type PayloadJson = { readonly value: unknown } | { readonly error: string };

const UTF8 = new TextDecoder('utf-8', { fatal: true });

export function parsePayloadJson(data: string | undefined): PayloadJson {
  if (typeof data !== 'string' || data === '') return { error: 'the message has no payload (data) to read JSON fields from' };
  const bytes = base64Bytes(data);
  if (bytes === undefined) return { error: 'the payload (data) is not base64' };
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return { error: 'the payload is not UTF-8 text, so not JSON' };
  }
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { error: 'the payload is not JSON' };
  }
}
