/**
 * The standalone HTML export: one self-contained .html file that opens the timeline in any
 * browser, without VS Code and without a network. It inlines the webview bundle and its CSS,
 * and embeds the session as a SessionSnapshot (columns packed: byte-shuffled, deflated, base64;
 * see src/shared/snapshotPacking.ts) plus the records chosen for the detail pane; the page's own
 * host (src/webview/standaloneHost.ts) answers the webview. A small preview (the `init` reply and
 * the first fit-all page, computed here by the same TimelineService) goes before the script and
 * the session after it, so the first view is drawn while the browser still parses the session.
 *
 * Safety: a strict CSP (no network, no inline handlers; script and style only with this file's
 * nonce, from crypto.randomBytes); the session goes in a JSON data block with every `<`, `>`
 * and `&` escaped, so no record content — a key, an attribute, a payload like
 * `</script><img src=x onerror=alert(1)>` — can end the block or become markup.
 *
 * Written piece by piece to a temporary file then renamed: a million-event session is a
 * ~100 MB file and never one string in memory, and a failed export leaves no half file behind.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflateRaw } from 'node:zlib';
import type { ReceivedMessage } from '../../core/capture/captureRecord';
import { OutputFile, writeError } from '../../core/export/outputFile';
import type { CaptureSession } from '../captureSession';
import { Kind } from '../../shared/timelineModel';
import { restoreSteps, snapshotSteps } from '../sessionSnapshot';
import { Base64, SessionSnapshot } from '../../shared/timelineModel';
import { lowerBound } from '../binarySearch';
import { EventFilter, matches } from '../timelineQuery';
import { RecordSource, TimelineService } from '../timelineService';
import { COLUMN_WIDTHS, PACKING, PackedSnapshot, shuffle } from '../../shared/snapshotPacking';
import { META_ELEMENT_ID, PREVIEW_ELEMENT_ID, SESSION_ELEMENT_ID, StandaloneMeta, StandalonePreview } from '../../shared/standaloneEmbed';
import { IDLE_REPLAY } from '../../shared/protocol';
import { CODICON_CSS, CODICON_DIR, CODICON_FONT, CODICON_STYLESHEET_ID, codiconCss } from '../../shared/codicons';
import type { SeqBits } from '../../core/sequencer/serial';
import type { KeyOrder } from '../../core/trace/keyOrder';
import { THEME_FALLBACKS } from '../standaloneTheme';
import { embeddedDecodings } from '../decodedPayload';
import type { SchemaSet } from '../../core/schema/schemaSet';

export interface StandaloneHtmlOptions {
  title: string;
  /** How the session was sequenced, in words (shown under the title). */
  options: string;
  /** Width of its sequence numbers (the filter bar checks ranges against it). */
  seqBits?: SeqBits;
  /** Payloads are MDP 3.0 packets: the page's detail pane decodes them. */
  payload?: 'mdp3';
  /** The dist directory holding webview/timeline.js. */
  bundleDir: string;
  /** The timeline CSS; default `<bundleDir>/../media/timeline.css` (the extension's layout). */
  cssPath?: string;
  filter?: EventFilter;
  /** Records embedded for the detail pane (findings first). Default 20 000. */
  maxEmbeddedRecords?: number;
  /** The session's schemas: the embedded records' payloads go decoded too (the page has no decoder). */
  schemas?: SchemaSet;
  readRecord: RecordSource;
  /** Session id for the page (default: derived from the title). */
  id?: string;
  /** The lanes' order the page opens with (its Keys menu changes it there); default: first seen. */
  keyOrder?: KeyOrder;
  /**
   * Stops the export (the editor's Cancel): the promise rejects with the signal's reason and
   * whatever was at `out` stays as it was.
   */
  signal?: AbortSignal;
  /** How much of the export is done, 0…1, now and then (the editor's progress notification). */
  onProgress?: (fraction: number) => void;
}

export const DEFAULT_MAX_EMBEDDED_RECORDS = 20_000;
/** Records read from the capture at once while choosing what to embed. */
const READ_BATCH = 64;
/** MessageIds looked at between two breaths while packing them. */
const ID_SLICE = 100_000;
const deflateRawAsync = promisify(deflateRaw);

const nodeBase64: Base64 = {
  encode: (b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64'),
  decode: (t) => new Uint8Array(Buffer.from(t, 'base64')),
};

/** A settled promise's value, or its reason thrown. */
function settledValue<T>(r: PromiseSettledResult<T>): T {
  if (r.status === 'rejected') throw r.reason;
  return r.value;
}

export async function writeStandaloneHtml(session: CaptureSession, out: string, opts: StandaloneHtmlOptions): Promise<void> {
  const jsPath = join(opts.bundleDir, 'webview', 'timeline.js');
  const cssPath = opts.cssPath ?? join(opts.bundleDir, '..', 'media', 'timeline.css');
  const codiconDir = join(opts.bundleDir, CODICON_DIR);
  // Read together; when several are missing, the first of them in this order is said (the bundle before the rest).
  const [jsRead, cssRead, iconsRead] = await Promise.allSettled([
    readFile(jsPath, 'utf8').catch(() => {
      throw new Error(`the timeline bundle ${jsPath} is missing: build it first (npm run build)`);
    }),
    readFile(cssPath, 'utf8').catch(() => {
      throw new Error(`the timeline stylesheet ${cssPath} is missing: pass cssPath`);
    }),
    Promise.all([readFile(join(codiconDir, CODICON_CSS), 'utf8'), readFile(join(codiconDir, CODICON_FONT))]).catch(() => {
      throw new Error(`the codicons in ${codiconDir} are missing: build first (npm run build)`);
    }),
  ]);
  const js = settledValue(jsRead);
  const css = settledValue(cssRead);
  const icons = settledValue(iconsRead);
  const signal = opts.signal;
  // Each stage's share of the progress, roughly its share of the time on a large session.
  const progress = (from: number, to: number) => (fraction: number) => opts.onProgress?.(from + (to - from) * fraction);
  // Between steps: the extension host runs what waited (and Cancel is seen).
  const breathe = async () => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
  };
  const records = await embeddedRecords(
    session,
    opts.readRecord,
    opts.filter,
    opts.maxEmbeddedRecords ?? DEFAULT_MAX_EMBEDDED_RECORDS,
    signal,
    progress(0, 0.2),
  );
  const snap = await runSteps(snapshotSteps(session, nodeBase64, records, opts.filter), breathe, progress(0.2, 0.45));
  const decoded = embeddedDecodings(records, opts.schemas);
  if (decoded) snap.decoded = decoded;
  const meta: StandaloneMeta = {
    id: opts.id ?? `standalone:${opts.title}`,
    title: opts.title,
    options: opts.options,
    ...(opts.seqBits ? { seqBits: opts.seqBits } : {}),
    ...(opts.keyOrder ? { keyOrder: opts.keyOrder } : {}),
    ...(opts.payload ? { payload: opts.payload } : {}),
  };
  // The preview must be what the page will compute: from the snapshot's own (filtered,
  // renumbered) events when there is a filter, else the session is the same thing.
  const preview = buildPreview(opts.filter ? await runSteps(restoreSteps(snap, nodeBase64), breathe) : session, meta);
  const packed = await packSnapshot(snap, breathe, progress(0.5, 0.9));
  const nonce = randomBytes(18).toString('base64');

  // Beside the target, renamed over it once whole (see OutputFile).
  const output = await OutputFile.open(out, 'utf8');
  const stream = output.stream;
  const failed = new Promise<never>((_, reject) => stream.once('error', reject));
  const write = async (text: string) => {
    signal?.throwIfAborted();
    if (!stream.write(text)) await Promise.race([new Promise<void>((r) => stream.once('drain', () => r())), failed]);
  };
  try {
    await write(head(opts.title, nonce, css, standaloneCodicons(icons[0], icons[1])));
    await write(`<script type="application/json" id="${META_ELEMENT_ID}">${jsonForHtml(meta)}</script>\n`);
    await write(`<script type="application/json" id="${PREVIEW_ELEMENT_ID}">${jsonForHtml(preview)}</script>\n`);
    await write(`<script nonce="${nonce}">${inlineScript(js)}</script>\n`);
    await write(`<script type="application/json" id="${SESSION_ELEMENT_ID}">`);
    await writeSnapshot(packed, write);
    await write('</script>\n</body>\n</html>\n');
    await Promise.race([new Promise<void>((resolve) => stream.end(resolve)), failed]);
    opts.onProgress?.(1);
  } catch (e) {
    await output.discard();
    if (signal?.aborted) throw e;
    throw writeError(out, e, output.left);
  }
  await output.commit();
}

/** The CSP of the export: nothing loads from anywhere; only this file's nonce runs or styles. */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    'img-src data:',
    // The codicon font, inlined as a data: URL.
    'font-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * The codicons of a page that is one file: the font as a data: URL, the stylesheet once in the
 * page (for the font) and, as a data: URL, for the web components' shadow roots to link.
 */
export function standaloneCodicons(codiconCssText: string, font: Buffer): { css: string; href: string } {
  const css = codiconCss(codiconCssText, `data:font/ttf;base64,${font.toString('base64')}`);
  // The shadow roots need only the classes: Chromium takes the font from the page's @font-face.
  const classes = css.replace(/@font-face\s*{[^}]*}/, '');
  return { css, href: `data:text/css;base64,${Buffer.from(classes).toString('base64')}` };
}

function head(title: string, nonce: string, css: string, icons: { css: string; href: string }): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="SeqScope">
<title>SeqScope — ${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style nonce="${nonce}">${inlineStyle(THEME_FALLBACKS)}</style>
<style nonce="${nonce}">${inlineStyle(icons.css)}</style>
<link rel="stylesheet" id="${CODICON_STYLESHEET_ID}" href="${icons.href}" nonce="${nonce}">
<style nonce="${nonce}">${inlineStyle(css)}</style>
</head>
<body class="seqscope-standalone">
`;
}

/** Writes the snapshot as JSON one field (one column) at a time. */
async function writeSnapshot(snap: PackedSnapshot, write: (s: string) => Promise<void>): Promise<void> {
  const fields = Object.entries(snap) as [string, unknown][];
  await write('{');
  for (let i = 0; i < fields.length; i++) {
    const [name, value] = fields[i];
    await write(`${i ? ',' : ''}${JSON.stringify(name)}:`);
    if (name === 'events' || name === 'arrivals') {
      const cols = Object.entries(value as Record<string, string>);
      await write('{');
      for (let j = 0; j < cols.length; j++) await write(`${j ? ',' : ''}${JSON.stringify(cols[j][0])}:${jsonForHtml(cols[j][1])}`);
      await write('}');
    } else {
      await write(jsonForHtml(value));
    }
  }
  await write('}');
}

/**
 * Packs the snapshot's columns and messageIds (see src/shared/snapshotPacking.ts). Compression
 * runs on zlib's worker threads and the rest a column at a time, with `breathe` between: packed
 * in one go, a million events held the extension host for ~3 s.
 */
export async function packSnapshot(
  snap: SessionSnapshot,
  breathe: () => Promise<void> = async () => {},
  onProgress?: (fraction: number) => void,
): Promise<PackedSnapshot> {
  const pack = async (bytes: Uint8Array, width: number) => {
    const shuffled = shuffle(bytes, width);
    await breathe();
    return (await deflateRawAsync(shuffled, { level: 6 })).toString('base64');
  };
  const columns = Object.keys(snap.events).length + Object.keys(snap.arrivals).length + 1;
  let done = 0;
  const column = async (text: string, width: number) => {
    const packed = await pack(nodeBase64.decode(text), width);
    onProgress?.(++done / columns);
    return packed;
  };
  const events = {} as SessionSnapshot['events'];
  const arrivals = {} as SessionSnapshot['arrivals'];
  for (const [name, text] of Object.entries(snap.events) as [keyof SessionSnapshot['events'], string][])
    events[name] = await column(text, COLUMN_WIDTHS.events[name]);
  for (const [name, text] of Object.entries(snap.arrivals) as [keyof SessionSnapshot['arrivals'], string][])
    arrivals[name] = await column(text, COLUMN_WIDTHS.arrivals[name]);
  // Pub/Sub messageIds are decimal integers: as numbers they pack to almost nothing.
  const ids = snap.messageIds;
  let decimal = true;
  for (let i = 0; i < ids.length && decimal; i++) {
    const id = ids[i];
    decimal = id === '' || (/^(0|[1-9]\d{0,15})$/.test(id) && Number(id) <= Number.MAX_SAFE_INTEGER);
    if ((i + 1) % ID_SLICE === 0) await breathe();
  }
  let packedMessageIds: PackedSnapshot['packedMessageIds'];
  if (decimal) {
    const nums = new Float64Array(ids.length);
    for (let i = 0; i < ids.length; i++) {
      nums[i] = ids[i] === '' ? -1 : Number(ids[i]);
      if ((i + 1) % ID_SLICE === 0) await breathe();
    }
    packedMessageIds = { encoding: 'decimal', data: await pack(new Uint8Array(nums.buffer), 8) };
  } else {
    packedMessageIds = { encoding: 'json', data: (await deflateRawAsync(Buffer.from(JSON.stringify(ids)), { level: 6 })).toString('base64') };
  }
  onProgress?.(1);
  return { ...snap, events, arrivals, messageIds: [], packing: PACKING, packedMessageIds };
}

/**
 * What the page can show before it has decoded the session: the `init` reply and the page the
 * webview asks for first (fit-all window, first lane block), at a generous resolution.
 */
export function buildPreview(session: CaptureSession, meta: StandaloneMeta): StandalonePreview {
  return new TimelineService(session, { ...meta, standalone: true }).firstView(IDLE_REPLAY);
}

/**
 * JSON that is inert inside an HTML data block: `<`, `>` and `&` become \u escapes (still the
 * same JSON), so `</script>` or `<!--` in any string cannot end or alter the block; U+2028/9
 * are escaped too for anyone who pastes it into a script.
 */
export function jsonForHtml(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The bundle inside <script>: no `</script` may appear in it (it would end the element early). */
export function inlineScript(js: string): string {
  // Drop the source map reference: there is no file next to the export to load it from.
  const body = js.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
  if (/<!--/.test(body)) throw new Error('the timeline bundle contains "<!--", which cannot be inlined in HTML safely');
  // In JavaScript strings and regular expressions `<\/` means the same as `</`.
  return body.replace(/<\/(script)/gi, '<\\/$1');
}

export function inlineStyle(css: string): string {
  return css.replace(/<\/(style)/gi, '<\\/$1');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// ---------------------------------------------------------------------------------------------
// Which records to embed

/**
 * Arrival indexes worth embedding, best first, at most `max`: the messages around each gap
 * (what was last delivered before it and what was released after it), duplicates, late and
 * reordered messages, invalid records, then messages in arrival order — all within `filter`.
 */
export function chooseRecords(session: CaptureSession, filter: EventFilter | undefined, max: number): number[] {
  const store = session.store;
  const chosen = new Set<number>();
  const arrival = store.arrival.data;
  const kinds = store.kind.data;
  const add = (id: number) => {
    if (chosen.size >= max) return false;
    const a = arrival[id];
    if (a >= 0 && matches(session, id, filter)) chosen.add(a);
    return chosen.size < max;
  };
  const NEIGHBOURS = 2;
  // Gaps' neighbours, over all keys.
  for (const ke of store.keys) {
    const all = ke.all;
    for (let g = 0; g < ke.gap.length && chosen.size < max; g++) {
      const gapId = ke.gap.data[g];
      if (!matches(session, gapId, filter)) continue;
      const at = lowerBound((i) => all.data[i], 0, all.length, gapId);
      for (const step of [-1, 1]) {
        let n = 0;
        for (let i = at + step; i >= 0 && i < all.length && n < NEIGHBOURS; i += step) {
          const id = all.data[i];
          if (kinds[id] !== Kind.message) continue;
          add(id);
          n++;
        }
      }
    }
  }
  for (const group of ['duplicate', 'late', 'reordered'] as const) {
    for (const ke of store.keys) for (let i = 0; i < ke[group].length && chosen.size < max; i++) add(ke[group].data[i]);
  }
  for (let i = 0; i < store.invalid.length && chosen.size < max; i++) add(store.invalid.data[i]);
  for (let id = 0; id < store.count && chosen.size < max; id++) if (kinds[id] === Kind.message) add(id);
  return [...chosen];
}

/** Runs a generator of steps to its result, with `breathe` between steps; a number it yields is the fraction done. */
async function runSteps<R>(steps: Generator<number | void, R>, breathe: () => Promise<void>, onProgress?: (fraction: number) => void): Promise<R> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (typeof r.value === 'number') onProgress?.(r.value);
    await breathe();
  }
}

async function embeddedRecords(
  session: CaptureSession,
  read: RecordSource,
  filter: EventFilter | undefined,
  max: number,
  signal: AbortSignal | undefined,
  onProgress: (fraction: number) => void,
): Promise<Record<number, ReceivedMessage>> {
  const arrivals = chooseRecords(session, filter, Math.max(0, max));
  // Read in file order: sequential reads are kinder to the disk than the priority order.
  arrivals.sort((a, b) => a - b);
  const out: Record<number, ReceivedMessage> = {};
  for (let i = 0; i < arrivals.length; i += READ_BATCH) {
    signal?.throwIfAborted();
    const batch = arrivals.slice(i, i + READ_BATCH);
    const got = await Promise.all(batch.map((a) => read(a)));
    got.forEach((rm, j) => {
      if (rm) out[batch[j]] = rm;
    });
    onProgress((i + batch.length) / arrivals.length);
  }
  return out;
}
