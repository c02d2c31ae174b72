/**
 * CME Smart Stream on GCP JSON messages for tests: `header{messageType, sentTime, version,
 * sequenceNumber}` and a `payload[]` of entries with `instrument{symbol, …}` (the field names:
 * test/fixtures/cme-json/NOTICE.md). Our own shapes; no value is copied from CME.
 */
export interface SmartStreamJsonSpec {
  messageType?: string;
  /** header.sentTime as written (ISO 8601 text or a number). */
  sentTime: string | number;
  sequenceNumber?: string | number;
  symbol?: string;
  /** Leave payload[] empty (no instrument). */
  noEntries?: boolean;
}

export function smartStreamJson(s: SmartStreamJsonSpec): Record<string, unknown> {
  const header: Record<string, unknown> = { messageType: s.messageType ?? 'TRADE', sentTime: s.sentTime, version: '1.0' };
  if (s.sequenceNumber !== undefined) header.sequenceNumber = s.sequenceNumber;
  const entry = {
    instrument: { symbol: s.symbol ?? 'ESZ6', productCode: (s.symbol ?? 'ESZ6').slice(0, 2), productType: 'FUT', periodCode: '202612' },
    tradePrice: '6000.25',
    tradeQuantity: 1,
  };
  return { header, payload: s.noEntries ? [] : [entry] };
}

export function base64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64');
}
