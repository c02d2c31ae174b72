/**
 * Records for the record scanner's property tests (recordScan.test.ts, the fuzz tier): real-shaped
 * ReceivedMessage lines written by a serialiser that varies what JSON allows and what it does not
 * — fields in any order, whitespace between any tokens, any character escaped, unicode and lone
 * surrogates, fields given twice, numbers in every form, values of the wrong type, nested
 * attribute values, huge payloads — and raw bytes broken afterwards.
 */
import fc from 'fast-check';

/** A JSON value to write, with how to write it. */
export type Json = string | number | boolean | null | Json[] | { readonly entries: [string, Json][] } | { readonly raw: string };

/** How the serialiser writes: each choice drawn from `pick` (a seeded stream of numbers in [0, 1)). */
export function writeJson(v: Json, pick: () => number, hostile = true): string {
  const write = (x: Json): string => writeJson(x, pick, hostile);
  const str = (x: string): string => (hostile ? writeString(x, pick) : JSON.stringify(x));
  const space = (): string => (pick() < 0.12 ? [' ', '\t', '\r', '  ', ' \t '][Math.floor(pick() * 5)] : '');
  if (v === null || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return hostile ? writeNumber(v, pick) : JSON.stringify(v);
  if (typeof v === 'string') return str(v);
  if (Array.isArray(v)) return `[${space()}${v.map(write).join(`${space()},${space()}`)}${space()}]`;
  if ('raw' in v) return v.raw;
  const entries = [...v.entries];
  // Fields in any order.
  if (pick() < 0.3) entries.sort(() => pick() - 0.5);
  return `{${space()}${entries.map(([k, x]) => `${str(k)}${space()}:${space()}${write(x)}`).join(`${space()},${space()}`)}${space()}}`;
}

function writeNumber(n: number, pick: () => number): string {
  const r = pick();
  if (!Number.isInteger(n) || r < 0.8) return JSON.stringify(n);
  // Other spellings of the same number.
  return [`${n}.0`, `${n}e0`, `${n}E+0`, `${n}0e-1`][Math.floor(pick() * 4)];
}

/** A JSON string, some characters escaped (`\uXXXX`, `\/`, short escapes). */
export function writeString(s: string, pick: () => number): string {
  if (pick() < 0.8) return JSON.stringify(s);
  let out = '"';
  for (const ch of s) {
    const r = pick();
    if (r < 0.15) for (let k = 0; k < ch.length; k++) out += `\\u${ch.charCodeAt(k).toString(16).padStart(4, '0')}`;
    else if (r < 0.2 && ch === '/') out += '\\/';
    else out += JSON.stringify(ch).slice(1, -1);
  }
  return out + '"';
}

const obj = (...entries: [string, Json][]): Json => ({ entries });

/** Strings with what scanners trip on: unicode, astral characters, lone surrogates, quotes, backslashes, controls. */
export const textArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('310', '311', 'abc', '', 'ES', '2070443600000001') },
  { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom('é', '€uro', '😀', 'a\u2028b', 'q"uote', 'back\\slash', 'tab\tx', '\ud800', 'x\udc00y', '__proto__', 'constructor') },
);

/** Keys and ids as feeds write them: ASCII, and now and then unicode. */
const cleanText = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('310', '311', 'ES', '2070443600000001', 'order-17') },
  { weight: 1, arbitrary: fc.constantFrom('é', '😀', '') },
);
const digitsArb = fc.oneof(
  fc.integer({ min: 0, max: 70_000 }).map(String),
  fc.constantFrom(
    '007',
    '0',
    '4294967295',
    '4294967296',
    '9007199254740993',
    '123456789012345',
    '1234567890123456',
    '-1',
    '+3',
    '1e3',
    ' 5',
    '',
    '0x10',
    '3.0',
  ),
);
const timeArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 400_000 }).map((t) => new Date(Date.UTC(2026, 10, 30, 9, 30) + t).toISOString()) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 999_999 }).map((us) => `2026-11-30T09:30:00.${String(us).padStart(6, '0')}Z`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '2026-11-30T09:30:00Z',
      '2026-11-30T09:30:00.1234567891Z',
      '2026-11-30 09:30:00Z',
      '2026-11-30T09:30:00+01:00',
      '2026-02-30T09:30:00Z',
      '2024-02-29T23:59:59.999z',
      '0099-01-01T00:00:00Z',
      '2026-11-30T24:00:00Z',
      '2026-11-30T09:30:00.Z',
      'yesterday',
      '',
    ),
  },
);
const cleanTime = fc.integer({ min: 0, max: 400_000 }).map((t) => new Date(Date.UTC(2026, 10, 30, 9, 30) + t).toISOString());
/** A value of an unexpected type (or, rarely, of the expected one). */
const wrongArb: fc.Arbitrary<Json> = fc.constantFrom<Json>(null, true, 0, -1.5e3, [], ['x'], obj(), obj(['a', 'b']), '', { raw: '1e400' });

/** A field given as usual, left out, of the wrong type, or given twice (only as usual when not `hostile`). */
function field(name: string, value: fc.Arbitrary<Json>, hostile: boolean): fc.Arbitrary<[string, Json][]> {
  const usual = value.map((v): [string, Json][] => [[name, v]]);
  if (!hostile) return usual;
  return fc.oneof(
    { weight: 16, arbitrary: usual },
    { weight: 1, arbitrary: fc.constant<[string, Json][]>([]) },
    { weight: 1, arbitrary: wrongArb.map((v): [string, Json][] => [[name, v]]) },
    {
      weight: 1,
      arbitrary: fc.tuple(value, value).map(([a, b]): [string, Json][] => [
        [name, a],
        [name, b],
      ]),
    },
  );
}

const attributesArb = (h: boolean): fc.Arbitrary<Json> =>
  fc
    .tuple(
      field('Channel', h ? textArb : cleanText, h),
      field('MsgSeqNum', h ? digitsArb : fc.integer({ min: 0, max: 65_535 }).map(String), h),
      field(
        'SendingTime',
        h
          ? fc.oneof(fc.integer({ min: 0, max: 2e12 }).map(String), fc.constantFrom('1796031000001.5', 'x', ' 17 ', '0x1F', '1e3', 'Infinity', ''))
          : fc.integer({ min: 0, max: 2e12 }).map(String),
        h,
      ),
      fc.array(
        fc.tuple(
          textArb,
          h ? fc.oneof({ weight: 5, arbitrary: textArb as fc.Arbitrary<Json> }, { weight: 1, arbitrary: wrongArb }) : (textArb as fc.Arbitrary<Json>),
        ),
        { maxLength: 3 },
      ),
    )
    .map(([a, b, c, extra]) => ({ entries: [...a, ...b, ...c, ...extra] }));

/** A base64 payload: short, long, of a JSON document (for json: options), or not base64 at all. */
const dataArb: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: fc.uint8Array({ maxLength: 60 }).map((b) => Buffer.from(b).toString('base64')) },
  {
    weight: 2,
    arbitrary: fc
      .record({ seq: fc.oneof(fc.nat(70_000), fc.constantFrom('12', '-3', 1.5)), sym: textArb, at: timeArb })
      .map((d) =>
        Buffer.from(JSON.stringify({ header: { sequenceNumber: d.seq, sentTime: d.at }, payload: [{ instrument: { symbol: d.sym } }] })).toString('base64'),
      ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 10_000, max: 200_000 }).map((n) => 'QUJD'.repeat(n >> 2)) },
  { weight: 1, arbitrary: fc.constantFrom('not base64!', 'é', '', 'eyJ9', 'AAAAAQAAAAAAAAAACgAAAAAAAQAIAA==') },
);

/** A ReceivedMessage (or, when `hostile`, something close to one) as a JSON value. */
export const recordOf = (h: boolean): fc.Arbitrary<Json> =>
  fc
    .tuple(
      field('ackId', textArb, h),
      fc
        .tuple(
          field('data', dataArb, h),
          field('attributes', attributesArb(h), h),
          field('messageId', h ? textArb : cleanText, h),
          field('publishTime', timeArb, h),
          field('orderingKey', h ? textArb : cleanText, h),
          fc.array(fc.tuple(textArb, wrongArb), { maxLength: 2 }),
        )
        .map(([a, b, c, d, e, extra]) => ({ entries: [...a, ...b, ...c, ...d, ...e, ...extra] }) as Json),
      field('deliveryAttempt', fc.integer({ min: 1, max: 5 }), h),
      field('receivedAt', h ? timeArb : cleanTime, h),
      fc.oneof(
        { weight: 5, arbitrary: fc.constant<[string, Json][]>([]) },
        { weight: 1, arbitrary: field('topic', fc.constantFrom('projects/p/topics/md-310', 'md', ''), h) },
      ),
      fc.array(fc.tuple(textArb, wrongArb), { maxLength: 2 }),
    )
    .map(([ack, message, attempt, received, topic, extra]) => ({
      entries: [...ack, ['message', message] as [string, Json], ...attempt, ...received, ...topic, ...extra],
    }));

/** Records as a capture holds them, with the odd hostile one, written hostile or plain. */
export const recordArb: fc.Arbitrary<{ record: Json; hostile: boolean }> = fc.oneof(
  { weight: 1, arbitrary: recordOf(false).map((record) => ({ record, hostile: false })) },
  { weight: 1, arbitrary: recordOf(true).map((record) => ({ record, hostile: true })) },
);

/** Raw bytes broken after writing: flipped, dropped or inserted (controls, high bytes, quotes, backslashes). */
export type Damage = { readonly at: number; readonly op: 'flip' | 'drop' | 'insert'; readonly byte: number };
export const damageArb: fc.Arbitrary<Damage[]> = fc.oneof(
  { weight: 5, arbitrary: fc.constant<Damage[]>([]) },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.record({
        at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        op: fc.constantFrom('flip' as const, 'drop' as const, 'insert' as const),
        byte: fc.constantFrom(0x00, 0x01, 0x1f, 0x22, 0x5c, 0x7b, 0x7d, 0x2c, 0x3a, 0x80, 0xc3, 0xe2, 0xff, 0x20, 0x30, 0x0d),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  },
);

export function damage(bytes: Buffer, ds: readonly Damage[]): Buffer {
  let b = bytes;
  for (const d of ds) {
    const at = Math.floor(d.at * b.length);
    if (d.op === 'flip') (b = Buffer.from(b))[at] = d.byte;
    else if (d.op === 'drop') b = Buffer.concat([b.subarray(0, at), b.subarray(at + 1)]);
    else b = Buffer.concat([b.subarray(0, at), Buffer.from([d.byte]), b.subarray(at)]);
  }
  // A line holds no newline.
  return Buffer.from(b.map((c) => (c === 0x0a ? 0x20 : c)));
}

/** A seeded stream of numbers in [0, 1), for the serialiser's choices. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
