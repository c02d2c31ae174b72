/**
 * The request channel (requestChannel.ts) as the timeline uses it: webview messages in, host
 * messages out. The one place a first view (StandalonePreview: `init` and the fit-all page,
 * computed before the session is ready) answers requests — for the extension's controller, the
 * standalone page's host and the webview's own front alike.
 */
import type { HostMessage, WebviewMessage } from './protocol';
import { Answer, Answerer, RequestChannel } from './requestChannel';
import type { StandalonePreview } from './standaloneEmbed';

export type TimelineAnswerer = Answerer<WebviewMessage, HostMessage>;
export type TimelineChannel = RequestChannel<WebviewMessage, HostMessage>;

/** A timeline channel; a page request waiting behind a newer one is skipped (the webview would drop its reply). */
export function timelineChannel(reply: (m: HostMessage) => void, failed: (req: WebviewMessage, e: unknown) => void, ordered: boolean): TimelineChannel {
  return new RequestChannel<WebviewMessage, HostMessage>({
    reply,
    failed,
    ordered,
    superseded: (req, behind) => req.type === 'requestPage' && behind.some((m) => m.type === 'requestPage'),
  });
}

/**
 * What a first view answers: `ready` with its `init`, a page request for its window and only
 * lanes it holds, and `select` / `painted` (nothing to say); anything else is left to `rest`
 * (absent: it waits for the next stage).
 */
export function previewAnswerer(p: StandalonePreview, rest?: TimelineAnswerer): TimelineAnswerer {
  return (msg) => answerFromPreview(p, msg) ?? rest?.(msg);
}

/** `{ reply }` (or `{}`, handled with nothing to say), or undefined when the preview cannot answer `msg`. */
export function answerFromPreview(p: StandalonePreview, msg: WebviewMessage): Answer<HostMessage> {
  if (msg.type === 'ready') return { reply: p.init };
  if (msg.type === 'select' || msg.type === 'painted') return {};
  const pp = p.page;
  if (msg.type === 'requestPage' && pp && msg.t0 === pp.t0 && msg.t1 === pp.t1 && msg.lanes.every((l) => pp.lanes.includes(l))) {
    const want = new Set(msg.lanes);
    return { reply: { type: 'page', requestId: msg.requestId, page: { ...pp.page, lanes: pp.page.lanes.filter((l) => want.has(l.key)) } } };
  }
  return undefined;
}
