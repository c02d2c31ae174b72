/**
 * The host of a standalone HTML export, inside the page: the export embeds the session (a
 * packed SessionSnapshot, see snapshotPacking.ts) and the records chosen for the detail pane;
 * this rebuilds the CaptureSession and answers the webview's protocol messages with the same
 * TimelineService the extension uses. There is no replay here (no sequencer state to step
 * through), so SessionInfo.standalone hides its toolbar.
 *
 * Two stages of its request channel (shared/timelineChannel.ts), so the first view does not
 * wait for a large session to be parsed: until the session block has been parsed and decoded,
 * the `init` reply and the first page come from the preview the exporter computed; other
 * requests wait. Then everything is answered from the session, in order.
 *
 * Everything runs on the page's one thread, so a page request over a million events is cut into
 * slices of lanes with a yield between them: the canvas keeps drawing (scaled older pages)
 * while a page is computed.
 */
import type { HostMessage, LanePage, TimelinePage, WebviewMessage } from '../shared/protocol';
import { IDLE_REPLAY } from '../shared/protocol';
import type { ReceivedMessage } from '../core/capture/captureRecord';
import { lowerBound } from '../timeline/columns';
import type { Base64, SessionSnapshot } from '../shared/timelineModel';
import { queryTimeline } from '../timeline/timelineQuery';
import { TimelineService } from '../timeline/timelineService';
import { embeddedDecoder } from '../timeline/embeddedDecoder';
import { LaneIndex } from '../timeline/laneIndex';
import type { HostChannel } from './hostChannel';
import { assertNever } from '../core/util/assertNever';
import { previewAnswerer, TimelineChannel, timelineChannel } from '../shared/timelineChannel';
import { restoreSessionSliced } from './sessionRestore';
import { PackedSnapshot, unpackSnapshot } from '../shared/snapshotPacking';
import { META_ELEMENT_ID, PREVIEW_ELEMENT_ID, readJsonBlock, SESSION_ELEMENT_ID, StandaloneMeta, StandalonePreview } from '../shared/standaloneEmbed';

/** Events scanned per slice before yielding to the renderer. */
const SLICE_EVENTS = 150_000;

const base64: Base64 = {
  encode(bytes) {
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s);
  },
  decode(text) {
    // Native decoding (Chromium 140+) is many times faster than atob and a loop.
    const native = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array }).fromBase64;
    if (native) return native(text);
    const bin = atob(text);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  },
};

/** True when the page is a standalone export (its preview or session block is there). */
export function hasEmbeddedSession(doc: Document = document): boolean {
  return doc.getElementById(PREVIEW_ELEMENT_ID) !== null || doc.getElementById(SESSION_ELEMENT_ID) !== null;
}

/**
 * A channel to the embedded session. Returns at once (answering from the preview); the session
 * is decoded once the parser has reached it (DOMContentLoaded).
 */
export function standaloneChannel(doc: Document = document): HostChannel {
  const preview = readJsonBlock<StandalonePreview>(doc, PREVIEW_ELEMENT_ID);
  const host = new InPageHost(preview);
  const load = async () => {
    try {
      // Timings land in the page's performance timeline (DevTools, the benchmark).
      const t = performance.now();
      const raw = readJsonBlock<SessionSnapshot | PackedSnapshot>(doc, SESSION_ELEMENT_ID, true);
      performance.measure('seqscope:parse-session', { start: t });
      if (!raw || raw.version !== 1) throw new Error('this page does not embed a SeqScope session it can read');
      const { snapshot, base64: b64 } = 'packing' in raw ? await unpackSnapshot(raw, base64, yieldToRenderer) : { snapshot: raw, base64 };
      const meta = readJsonBlock<StandaloneMeta>(doc, META_ELEMENT_ID) ?? { id: 'standalone', title: 'SeqScope session', options: snapshot.summary.options };
      performance.measure('seqscope:unpack-session', { start: t });
      const t2 = performance.now();
      const session = await restoreSessionSliced(snapshot, b64, yieldToRenderer);
      performance.measure('seqscope:restore-session', { start: t2 });
      const records = snapshot.records;
      const decode = embeddedDecoder(records, snapshot.decoded);
      host.attach(
        new TimelineService(session, { ...meta, standalone: true }, async (arrival) => records[arrival] as ReceivedMessage | undefined, undefined, decode),
      );
      performance.mark('seqscope-session-loaded');
    } catch (e) {
      host.fail(`This export could not be read: ${(e as Error).message}`);
    }
  };
  if (doc.readyState === 'loading') doc.addEventListener('DOMContentLoaded', () => void load(), { once: true });
  else void load();
  return host.channel();
}

class InPageHost {
  private readonly handlers: ((msg: HostMessage) => void)[] = [];
  private readonly requests: TimelineChannel;
  private index: LaneIndex | undefined;

  constructor(preview: StandalonePreview | undefined) {
    this.requests = timelineChannel(
      (reply) => this.emit(reply),
      (_req, e) => this.emit({ type: 'error', message: (e as Error).message || String(e) }),
      true,
    );
    // Before the session is decoded: the preview answers what it can, the rest waits.
    if (preview) this.requests.answerWith(previewAnswerer(preview));
  }

  channel(): HostChannel {
    return {
      post: (msg) => this.requests.request(msg),
      onMessage: (h) => void this.handlers.push(h),
    };
  }

  attach(service: TimelineService): void {
    this.requests.answerWith(async (msg) => ({ reply: await this.handle(service, msg) }));
  }

  fail(message: string): void {
    // Nothing more is answered: the error says why.
    this.requests.answerWith(() => ({}), true);
    this.emit({ type: 'error', message });
  }

  private emit(msg: HostMessage): void {
    for (const h of this.handlers) h(msg);
  }

  private async handle(s: TimelineService, msg: WebviewMessage): Promise<HostMessage | undefined> {
    switch (msg.type) {
      case 'ready':
        return s.initMessage(IDLE_REPLAY);
      case 'requestPage':
        // Not packed: nothing is serialised in the page, and a plain page is a valid WirePage
        // (its columns go as they are), which the app unpacks at no cost.
        return { type: 'page', requestId: msg.requestId, page: await this.page(s, msg) };
      case 'requestDetail':
      case 'setFilter':
      case 'setKeyOrder':
        return s.handle(msg);
      case 'select':
      case 'painted':
      case 'liveDrawn':
      case 'liveResync':
        // A standalone page is never live.
        return undefined;
      case 'replay':
      case 'setSpeed':
      case 'seek':
        return { type: 'error', message: 'Replay needs the live session: open the capture in VS Code to step through it.' };
      default:
        return assertNever(msg, 'message from the timeline');
    }
  }

  /**
   * The same page TimelineService would answer, computed a few lanes at a time with a yield to
   * the renderer between groups. Without a filter, lanes take the indexed path of LaneIndex (timeline/laneIndex.ts)
   * (bounded work per lane); with one, queryTimeline answers, lanes grouped until they hold
   * about SLICE_EVENTS events in the window.
   */
  private async page(s: TimelineService, msg: Extract<WebviewMessage, { type: 'requestPage' }>): Promise<TimelinePage> {
    const store = s.session.store;
    const q = { t0: msg.t0, t1: msg.t1, buckets: msg.buckets, position: s.position };
    const fast = !s.eventFilter && s.position === undefined;
    this.index ??= new LaneIndex(s.session);
    const byKey = new Map<number, LanePage>();
    let head: TimelinePage | undefined;
    let group: number[] = [];
    let weight = 0;
    let sliceStart = performance.now();
    const breathe = async () => {
      if (performance.now() - sliceStart > 8) {
        await yieldToRenderer();
        sliceStart = performance.now();
      }
    };
    const flush = async () => {
      const p = queryTimeline(s.session, { ...q, lanes: group }, s.eventFilter);
      head ??= p;
      for (const l of p.lanes) byKey.set(l.key, l);
      group = [];
      weight = 0;
      await breathe();
    };
    for (const key of msg.lanes) {
      if (fast) {
        byKey.set(key, this.index.lane(key, msg.t0, msg.t1, msg.buckets));
        await breathe();
        continue;
      }
      const ke = store.keys[key];
      if (ke) {
        const t1 = store.t1.data;
        const list = ke.all.data;
        const from = lowerBound((i) => t1[list[i]], 0, ke.all.length, msg.t0);
        const to = lowerBound((i) => t1[list[i]], from, ke.all.length, msg.t1 + ke.maxSpan);
        weight += to - from;
      }
      group.push(key);
      if (weight >= SLICE_EVENTS) await flush();
    }
    if (group.length || !head) await flush();
    const h = head as TimelinePage;
    return { t0: h.t0, t1: h.t1, buckets: h.buckets, lanes: msg.lanes.map((k) => byKey.get(k) as LanePage), invalid: h.invalid };
  }
}

function yieldToRenderer(): Promise<void> {
  const sched = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (sched?.yield) return sched.yield();
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => resolve();
    ch.port2.postMessage(0);
  });
}
