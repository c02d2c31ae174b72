/**
 * Text the timeline shows: clock times, durations, counts, axis ticks, and a message payload
 * rendered as JSON, text or hex. Pure (no DOM), so it is unit-tested in plain Node; the UI puts
 * every string it returns into the page with textContent, never as markup.
 */
import { noun } from '../core/util/plural';
import { positionWords } from '../timeline/replayCursor';
import { type CursorState } from '../shared/timelineModel';

/** Largest payload shown in the detail pane; the rest is summarised, so a 10 MB body cannot freeze the page. */
export const PAYLOAD_SHOWN_BYTES = 64 * 1024;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** 09:30:00.105 (UTC; the capture's times are UTC and the axis must not depend on where it is viewed). */
export function clockTime(ms: number, fractionDigits = 3): string {
  if (!Number.isFinite(ms)) return '—';
  const d = new Date(Math.floor(ms));
  const base = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  if (fractionDigits <= 0) return base;
  // Sub-millisecond digits come from the fraction Date drops.
  const frac = ms - Math.floor(ms / 1000) * 1000;
  const text = frac.toFixed(Math.min(6, fractionDigits)).padStart(fractionDigits + 4, '0');
  return `${base}.${text.replace('.', '').slice(0, fractionDigits)}`;
}

/** 2026-11-30 09:30:00.105Z */
export function dateTime(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  const d = new Date(Math.floor(ms));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${clockTime(ms)}Z`;
}

/** 12 µs, 3.5 ms, 1.25 s, 2 min 5 s, 1 h 3 min. */
export function duration(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  const a = Math.abs(ms);
  const sign = ms < 0 ? '−' : '';
  if (a < 1) return `${sign}${trim((a * 1000).toFixed(a < 0.01 ? 1 : 0))} µs`;
  if (a < 1000) return `${sign}${trim(a.toFixed(a < 10 ? 2 : a < 100 ? 1 : 0))} ms`;
  if (a < 60_000) return `${sign}${trim((a / 1000).toFixed(a < 10_000 ? 2 : 1))} s`;
  if (a < 3_600_000) {
    const m = Math.floor(a / 60_000);
    const s = Math.round((a - m * 60_000) / 1000);
    return `${sign}${m} min${s ? ` ${s} s` : ''}`;
  }
  const h = Math.floor(a / 3_600_000);
  const m = Math.round((a - h * 3_600_000) / 60_000);
  return `${sign}${h} h${m ? ` ${m} min` : ''}`;
}

function trim(s: string): string {
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** 1 234 567 (thin grouping that reads the same in every locale). */
export function count(n: number): string {
  if (!Number.isFinite(n)) return '—';
  const s = String(Math.round(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
  return n < 0 ? `−${s}` : s;
}

/** 1.2k, 3.4M: lane labels have little room. */
export function shortCount(n: number): string {
  const a = Math.abs(n);
  if (a < 1000) return String(n);
  if (a < 1e6) return `${trim((n / 1000).toFixed(a < 10_000 ? 1 : 0))}k`;
  return `${trim((n / 1e6).toFixed(a < 1e7 ? 1 : 0))}M`;
}

/** A gap's missing numbers: "41517–41519 (3)" or "7777". */
export function missingRange(from: number, to: number, n?: number): string {
  if (from === to) return String(from);
  return `${from}–${to}${n !== undefined ? ` (${count(n)})` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Axis ticks

const TICK_STEPS_MS = [
  0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000,
  600_000, 900_000, 1_800_000, 3_600_000, 7_200_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000,
];

/** The smallest "nice" step that keeps ticks at least `minPx` apart at `msPerPx`. */
export function tickStep(msPerPx: number, minPx: number): number {
  const want = msPerPx * minPx;
  for (const s of TICK_STEPS_MS) if (s >= want) return s;
  return Math.ceil(want / 86_400_000) * 86_400_000;
}

/** Tick times in [t0, t1] at multiples of `step` (bounded: never more than `max`). */
export function ticks(t0: number, t1: number, step: number, max = 200): number[] {
  const out: number[] = [];
  if (!(step > 0) || !(t1 >= t0)) return out;
  for (let t = Math.ceil(t0 / step) * step; t <= t1 && out.length < max; t += step) out.push(t);
  return out;
}

/** How a tick at this step is labelled: fewer digits for coarse steps. */
export function tickLabel(t: number, step: number): string {
  if (step >= 1000) return clockTime(t, 0);
  if (step >= 1) return clockTime(t, 3);
  return clockTime(t, step >= 0.01 ? 5 : 6);
}

// ---------------------------------------------------------------------------------------------
// Payloads

export type PayloadView = 'json' | 'text' | 'hex';

/** Base64 (standard or URL-safe) to bytes; undefined when it is not base64. */
export function base64Bytes(b64: string): Uint8Array | undefined {
  const clean = b64.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return undefined;
  try {
    const bin = atob(clean.padEnd(Math.ceil(clean.length / 4) * 4, '='));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

/** UTF-8 text, or undefined when the bytes are not valid UTF-8 (or hold control bytes other than whitespace). */
export function utf8Text(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0008\u000e-\u001f\u007f]/.test(text) ? undefined : text;
}

/** Pretty JSON, or undefined when the text is not JSON. */
export function prettyJson(text: string): string | undefined {
  const t = text.trim();
  if (!t || !'{["-0123456789tfn'.includes(t[0])) return undefined;
  try {
    return JSON.stringify(JSON.parse(t), null, 2);
  } catch {
    return undefined;
  }
}

/** Classic hex dump: offset, 16 bytes, printable ASCII. */
export function hexDump(bytes: Uint8Array, max = PAYLOAD_SHOWN_BYTES): string {
  const n = Math.min(bytes.length, max);
  const lines: string[] = [];
  for (let o = 0; o < n; o += 16) {
    let hex = '';
    let ascii = '';
    for (let i = o; i < o + 16; i++) {
      if (i < n) {
        const b = bytes[i];
        hex += b.toString(16).padStart(2, '0') + (i === o + 7 ? '  ' : ' ');
        ascii += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.';
      } else {
        hex += i === o + 7 ? '    ' : '   ';
      }
    }
    lines.push(`${o.toString(16).padStart(8, '0')}  ${hex} ${ascii}`);
  }
  if (bytes.length > n) lines.push(`… ${count(bytes.length - n)} more bytes`);
  return lines.join('\n');
}

export interface RenderedPayload {
  /** The views this payload can be shown as (hex always). */
  views: PayloadView[];
  /** The view to open with. */
  preferred: PayloadView;
  render(view: PayloadView): string;
  bytes: number;
}

/** Works out how a base64 payload can be shown, decoding it once. */
export function renderPayload(b64: string | undefined): RenderedPayload | undefined {
  if (b64 === undefined) return undefined;
  const bytes = base64Bytes(b64);
  if (!bytes) {
    const raw = b64.length > PAYLOAD_SHOWN_BYTES ? `${b64.slice(0, PAYLOAD_SHOWN_BYTES)}…` : b64;
    return { views: ['text'], preferred: 'text', render: () => raw, bytes: b64.length };
  }
  const shown = bytes.length > PAYLOAD_SHOWN_BYTES ? bytes.subarray(0, PAYLOAD_SHOWN_BYTES) : bytes;
  const more = bytes.length > shown.length ? `\n… ${count(bytes.length - shown.length)} more bytes` : '';
  // A cut may split a UTF-8 sequence: decode the whole payload when it fits, else the head leniently.
  const text = bytes.length === shown.length ? utf8Text(bytes) : utf8Text(shown.subarray(0, lastCharBoundary(shown)));
  const json = text !== undefined && !more ? prettyJson(text) : undefined;
  const views: PayloadView[] = [];
  if (json !== undefined) views.push('json');
  if (text !== undefined) views.push('text');
  views.push('hex');
  return {
    views,
    preferred: views[0],
    bytes: bytes.length,
    render: (view) => {
      if (view === 'json' && json !== undefined) return json;
      if (view === 'text' && text !== undefined) return text + more;
      return hexDump(bytes);
    },
  };
}

function lastCharBoundary(b: Uint8Array): number {
  let i = b.length;
  // Step back over continuation bytes (10xxxxxx) and the lead byte they belong to.
  while (i > 0 && i > b.length - 4 && (b[i - 1] & 0xc0) === 0x80) i--;
  if (i > 0 && b[i - 1] >= 0xc0) i--;
  return i;
}

/** Where replay stands (core's positionWords), with the clock there and, at the ends, the arrivals. */
export function positionText(s: CursorState | undefined, arrivals: number): string {
  const all = `${count(arrivals)} ${noun(arrivals, 'arrival')}`;
  if (!s) return `not started · ${all}`;
  const words = positionWords(s.position, arrivals, count);
  const time = Number.isNaN(s.time) ? '' : ` · ${clockTime(s.time)}`;
  return s.position === 0 || s.position > arrivals ? `${words} · ${all}${time}` : `${words}${time}`;
}
