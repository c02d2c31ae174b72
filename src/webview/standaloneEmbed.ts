/**
 * What a standalone HTML export embeds besides the bundle, shared by the exporter (Node) and the
 * page (standaloneHost.ts). DOM-free.
 *
 * Order in the file, and why: the small blocks (meta, preview) come before the script and the
 * large session block after it, so the script starts and paints the first view from the preview
 * while the browser is still parsing the session (at ~10 MB/s, Chromium's rate for inline data).
 */
import type { HostMessage, TimelinePage } from '../shared/protocol';

export const META_ELEMENT_ID = 'seqscope-meta';
export const PREVIEW_ELEMENT_ID = 'seqscope-preview';
export const SESSION_ELEMENT_ID = 'seqscope-session';

/** What the export knows about the session besides the snapshot. */
export interface StandaloneMeta {
  id: string;
  title: string;
  options: string;
}

/**
 * Answers the page can give before the session is decoded, computed by the exporter with the
 * same TimelineService: the `init` reply, and the page for the initial fit-all window.
 */
export interface StandalonePreview {
  init: Extract<HostMessage, { type: 'init' }>;
  /** The fit-all page (window as the webview asks for it), for the first lanes. */
  page?: { t0: number; t1: number; lanes: number[]; page: TimelinePage };
}

/** Buckets of the preview page: ≥ 1 per pixel for plot widths up to ~1 600 px. */
export const PREVIEW_BUCKETS = 4096;
