/**
 * CME Smart Stream JSON messages for tests, in the shape CME publishes (field names and sources:
 * test/fixtures/cme-json/NOTICE.md): `header{messageType, sentTime, sequenceNumber, version}` and
 * a `payload[]` of entries, each with an `instrument{…, symbol}`. No value is copied from CME.
 */
export interface SmartStreamJsonSpec {
  /** CME's message types: TRD (trade summary), TOB (top of book), STAT (statistics). */
  messageType?: 'TRD' | 'TOB' | 'STAT';
  /** header.sentTime as written: CME writes ISO 8601 UTC with nanoseconds, `2023-11-28T15:46:20.532000000Z`. */
  sentTime: string;
  /** header.sequenceNumber, a string as CME sends it; left out when undefined. */
  sequenceNumber?: string;
  symbol?: string;
}

/** Instruments as CME's `instrument` object describes them (values ours). */
const INSTRUMENTS: Record<string, Record<string, string>> = {
  ESZ6: {
    definitionSource: 'E',
    exchangeMic: 'XCME',
    id: '118',
    marketSegmentId: '64',
    periodCode: '202612',
    productCode: 'ES',
    productGroup: 'ES',
    productType: 'FUT',
    symbol: 'ESZ6',
  },
  NQZ6: {
    definitionSource: 'E',
    exchangeMic: 'XCME',
    id: '5002',
    marketSegmentId: '64',
    periodCode: '202612',
    productCode: 'NQ',
    productGroup: 'NQ',
    productType: 'FUT',
    symbol: 'NQZ6',
  },
};

export function smartStreamJson(s: SmartStreamJsonSpec): Record<string, unknown> {
  const header: Record<string, unknown> = { messageType: s.messageType ?? 'TRD', sentTime: s.sentTime };
  if (s.sequenceNumber !== undefined) header.sequenceNumber = s.sequenceNumber;
  header.version = '1.0';
  const instrument = INSTRUMENTS[s.symbol ?? 'ESZ6'];
  if (!instrument) throw new Error(`no instrument ${s.symbol}`);
  // The trade's own fields are ours: only the instrument object follows CME's tables.
  return { header, payload: [{ instrument, tradePrice: '6000.25', tradeQuantity: '1' }] };
}

export function base64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64');
}
