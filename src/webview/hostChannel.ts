/**
 * The webview's side of the protocol: typed send/receive, whoever the host is — the extension
 * (postMessage through `acquireVsCodeApi`) or the in-page host of a standalone export. The
 * rest of the webview only sees `HostChannel` and the protocol types.
 */
import type { HostMessage, WebviewMessage } from '../shared/protocol';

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

const HOST_TYPES = new Set<HostMessage['type']>(['init', 'page', 'detail', 'replay', 'filter', 'reveal', 'error']);

/** The VS Code API, when running in a VS Code webview (it may be acquired only once). */
export function vscodeApi(): VsCodeApi | undefined {
  return typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : undefined;
}

/** A message event's data, when it is a host message (anything else in the window is ignored). */
export function asHostMessage(data: unknown): HostMessage | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const type = (data as { type?: unknown }).type;
  return typeof type === 'string' && HOST_TYPES.has(type as HostMessage['type']) ? (data as HostMessage) : undefined;
}

export function vscodeChannel(api: VsCodeApi): HostChannel {
  const handlers: ((msg: HostMessage) => void)[] = [];
  window.addEventListener('message', (e: MessageEvent) => {
    const msg = asHostMessage(e.data);
    if (msg) for (const h of handlers) h(msg);
  });
  return {
    post: (msg) => api.postMessage(msg),
    onMessage: (h) => void handlers.push(h),
    getState: () => api.getState(),
    setState: (s) => api.setState(s),
  };
}

/** Request ids, so a reply can be matched to its request and stale ones dropped. */
export class RequestIds {
  private last = 0;
  next(): number {
    return ++this.last;
  }
}
