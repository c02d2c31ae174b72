/**
 * The webview's side of the protocol: typed send/receive, whoever the host is — the extension
 * (postMessage through `acquireVsCodeApi`) or the in-page host of a standalone export. The
 * rest of the webview only sees `HostChannel` and the protocol types.
 */
import type { StandalonePreview } from '../shared/standaloneEmbed';
import { answerFromPreview, TimelineAnswerer, timelineChannel } from '../shared/timelineChannel';
import type { HostMessage, WebviewMessage } from '../shared/protocol';
import { LiveReceiver } from '../shared/liveUpdates';

export interface HostChannel {
  post(msg: WebviewMessage): void;
  onMessage(handler: (msg: HostMessage) => void): void;
  /** Persisted view state (VS Code keeps it while the panel is hidden); absent standalone. */
  getState?(): unknown;
  setState?(state: unknown): void;
}

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare const acquireVsCodeApi: (() => VsCodeApi) | undefined;

/** Every host message type (a Record, so that a type added to the protocol and not here fails to compile). */
const HOST_TYPES = new Set(
  Object.keys({ init: 1, liveUpdate: 1, loading: 1, page: 1, detail: 1, replay: 1, filter: 1, keyOrder: 1, reveal: 1, error: 1, persist: 1 } satisfies Record<
    HostMessage['type'],
    1
  >),
);

/** The VS Code API, when running in a VS Code webview (it may be acquired only once). */
export function vscodeApi(): VsCodeApi | undefined {
  return typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : undefined;
}

/** A message event's data, when it is a host message (anything else in the window is ignored). */
export function asHostMessage(data: unknown): HostMessage | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const type = (data as { type?: unknown }).type;
  return typeof type === 'string' && HOST_TYPES.has(type) ? (data as HostMessage) : undefined;
}

/** Where the host's messages arrive: the webview's window. */
export interface MessageSource {
  addEventListener(type: 'message', listener: (e: { data: unknown }) => void): void;
}

export function vscodeChannel(
  api: VsCodeApi,
  firstView?: StandalonePreview,
  source = globalThis as unknown as MessageSource,
  afterFrame: AfterFrame = afterNextFrame,
): HostChannel {
  const handlers: ((msg: HostMessage) => void)[] = [];
  const emit = (msg: HostMessage) => {
    for (const h of handlers) h(msg);
  };
  const forward: TimelineAnswerer = (msg) => {
    api.postMessage(msg);
    return {};
  };
  // The first view the extension embedded in the page (init and the first page), or sent along
  // with an init: answered here, so the first paint waits for no round trip to the extension
  // host — two of them took 0.3–1.2 s in a remote workbench. Used once: whatever comes from the
  // host afterwards wins.
  const fromPreview = (preview: StandalonePreview): TimelineAnswerer => {
    let pageUsed = false;
    return (msg) => {
      const answer = msg.type === 'ready' || (msg.type === 'requestPage' && !pageUsed) ? answerFromPreview(preview, msg) : undefined;
      if (!answer) return forward(msg);
      // The host learns the webview already shows this session, so it does not init it again.
      if (msg.type === 'ready') api.postMessage({ type: 'ready', shown: preview.init.session.id } satisfies WebviewMessage);
      else pageUsed = true;
      return answer;
    };
  };
  const requests = timelineChannel(emit, (msg, e) => emit({ type: 'error', message: `${msg.type}: ${(e as Error).message}` }), true);
  requests.answerWith(firstView ? fromPreview(firstView) : forward);
  // A live session's updates change the last `init`: the webview gets the `init` each one makes.
  const live = new LiveReceiver();
  source.addEventListener('message', (e) => {
    let msg = asHostMessage(e.data);
    if (!msg) return;
    if (msg.type === 'init' || msg.type === 'liveUpdate') {
      msg = live.receive(msg);
      if (!msg) {
        api.postMessage({ type: 'liveResync' } satisfies WebviewMessage);
        return;
      }
    }
    // An init may bring its first page along: kept to answer the webview's first request.
    if (msg.type === 'init' && msg.firstPage) requests.answerWith(fromPreview({ init: msg, page: msg.firstPage }));
    else if (msg.type !== 'page' && msg.type !== 'persist') requests.answerWith(forward);
    emit(msg);
    // Drawn (the app asked for its frame as it took the init, and its page was answered ahead): the next update may come.
    const seq = msg.type === 'init' ? msg.liveSeq : undefined;
    if (seq !== undefined) afterFrame(() => api.postMessage({ type: 'liveDrawn', seq } satisfies WebviewMessage));
  });
  return {
    post: (msg) => requests.request(msg),
    onMessage: (h) => void handlers.push(h),
    getState: () => api.getState(),
    setState: (s) => api.setState(s),
  };
}

/** Runs `f` once the next frame is drawn. */
export type AfterFrame = (f: () => void) => void;

/**
 * After the frame asked for before this (frames run their callbacks in the order asked), or at
 * once when the webview is hidden (no frames run then).
 */
const afterNextFrame: AfterFrame = (f) => {
  const w = globalThis as unknown as { document: { visibilityState: string }; requestAnimationFrame(f: () => void): unknown };
  if (w.document.visibilityState === 'hidden') setTimeout(f, 0);
  else w.requestAnimationFrame(f);
};

/** Request ids, so a reply can be matched to its request and stale ones dropped. */
export class RequestIds {
  private last = 0;
  next(): number {
    return ++this.last;
  }
}
