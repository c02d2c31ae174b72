/**
 * What a standalone HTML export embeds besides the bundle, shared by the exporter (Node) and the
 * page (standaloneHost.ts). DOM-free.
 *
 * Order in the file, and why: the small blocks (meta, preview) come before the script and the
 * large session block after it, so the script starts and paints the first view from the preview
 * while the browser is still parsing the session (at ~10 MB/s, Chromium's rate for inline data).
 */
import type { SessionMeta } from './timelineModel';
import type { FirstPage, HostMessage } from './protocol';

export const META_ELEMENT_ID = 'seqscope-meta';
export const PREVIEW_ELEMENT_ID = 'seqscope-preview';
export const SESSION_ELEMENT_ID = 'seqscope-session';

/** What the export knows about the session besides the snapshot. */
export type StandaloneMeta = SessionMeta;

/**
 * Answers the page can give before the session is decoded, computed by the exporter with the
 * same TimelineService: the `init` reply, and the page for the initial fit-all window.
 */
export interface StandalonePreview {
  init: Extract<HostMessage, { type: 'init' }>;
  /** The fit-all page (window as the webview asks for it), for the first lanes. */
  page?: FirstPage;
}

/** Buckets of the preview page: ≥ 1 per pixel for plot widths up to ~1 600 px. */
export const PREVIEW_BUCKETS = 4096;
/**
 * Lanes of the preview page: the first four lane blocks, what a plot up to 2 300 px tall shows.
 * The webview asks for whole blocks; with one block (16 lanes, 576 px) a panel on a 1080p
 * screen showed 17 lanes, asked for two blocks, and the preview could not answer: with more
 * than 16 keys the first paint waited for the session to reach the extension host.
 */
export const PREVIEW_LANES = 64;

/** A JSON data block of the page, parsed (optionally emptied afterwards: it can be megabytes). */
export function readJsonBlock<T>(doc: { getElementById(id: string): { textContent: string | null } | null }, id: string, drop = false): T | undefined {
  const el = doc.getElementById(id);
  const text = el?.textContent;
  if (el && drop) el.textContent = '';
  return text ? (JSON.parse(text) as T) : undefined;
}
