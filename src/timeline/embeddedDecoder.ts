/**
 * The detail pane's decoded record in a standalone export's page: the exporter decoded the
 * embedded records' payloads on the host (decodedPayload.ts), since the page carries no schema
 * decoders; this serves them by record, as the extension's PayloadDecode does.
 */
import type { ReceivedMessage } from '../core/capture/captureRecord';
import type { EmbeddedDecoding } from '../shared/timelineModel';
import type { PayloadDecode } from './timelineService';

export function embeddedDecoder(
  records: Readonly<Record<number, ReceivedMessage>>,
  decoded: Readonly<Record<number, EmbeddedDecoding>> | undefined,
): PayloadDecode | undefined {
  if (decoded === undefined) return undefined;
  const byRecord = new Map<ReceivedMessage, EmbeddedDecoding>();
  for (const [arrival, d] of Object.entries(decoded)) {
    const rm = records[Number(arrival)];
    if (rm !== undefined) byRecord.set(rm, d);
  }
  return (rm) => {
    const d = byRecord.get(rm);
    if (d === undefined) return undefined;
    return 'error' in d ? { decodeError: d.error } : { decoded: { text: JSON.stringify(d.record, null, 2), source: d.source } };
  };
}
