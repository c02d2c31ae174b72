/**
 * A sender's time as feeds write it in JSON: ISO 8601 with up to nanoseconds (`2026-12-01T09:30:00.123456789Z`,
 * an offset, or no zone at all, which is read as UTC: feeds that leave it out mean UTC, and the
 * machine's zone would make one file read differently on two desks), or a number since the epoch
 * in ms or ns (told apart by size: ns from 1e15 up, which as ms would be past the year 33000).
 */

const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;
/** At and above this, an epoch number is nanoseconds. */
const NS_FROM = 1e15;
const DIGITS = /^\d+$/;

/** Milliseconds since the epoch (fractional below 1 ms), or a string saying why not. */
export function parseTimestampMs(value: unknown): number | { readonly error: string } {
  if (typeof value === 'number') return epochMs(value, String(value));
  if (typeof value !== 'string') return { error: `is ${value === null ? 'null' : typeof value}, not a time` };
  const t = value.trim();
  if (DIGITS.test(t)) return epochMs(Number(t), t, t);
  const m = ISO.exec(t);
  if (!m) return { error: `${JSON.stringify(value)} is not a time: use ISO 8601 (2026-12-01T09:30:00.123456789Z) or ms/ns since the epoch` };
  const [, y, mo, d, h, mi, s = '0', frac = '', zone] = m;
  const base = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const check = new Date(base);
  if (
    base !== base ||
    check.getUTCMonth() !== Number(mo) - 1 ||
    check.getUTCDate() !== Number(d) ||
    check.getUTCHours() !== Number(h) ||
    check.getUTCMinutes() !== Number(mi) ||
    Number(s) > 59
  ) {
    return { error: `${JSON.stringify(value)} is not a valid date and time` };
  }
  let offsetMin = 0;
  if (zone !== undefined && zone !== 'Z' && zone !== 'z') {
    const zm = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
    offsetMin = (zm[1] === '-' ? -1 : 1) * (Number(zm[2]) * 60 + Number(zm[3] ?? '0'));
  }
  return base + Number((frac + '000000000').slice(0, 9)) / 1e6 - offsetMin * 60_000;
}

function epochMs(n: number, text: string, digits?: string): number | { readonly error: string } {
  if (!Number.isFinite(n) || n < 0) return { error: `${text} is not a time since the epoch` };
  if (n < NS_FROM) return n;
  // Nanoseconds: split the digits so the ms part stays exact past 2^53.
  if (digits !== undefined && digits.length > 6) return Number(digits.slice(0, -6)) + Number(digits.slice(-6)) / 1e6;
  return n / 1e6;
}
