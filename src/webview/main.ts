/**
 * Boots the timeline webview. In VS Code the extension is the host (acquireVsCodeApi); in a
 * standalone HTML export the page embeds the session and the webview runs its own host
 * (standaloneHost.ts). The page markup needs nothing but this script: the app builds its DOM
 * in <body> (or in #seqscope-root when the host page provides one).
 */
import { HostChannel, vscodeApi, vscodeChannel } from './hostChannel';
import { PREVIEW_ELEMENT_ID, readJsonBlock, StandalonePreview } from '../shared/standaloneEmbed';
import { hasEmbeddedSession, standaloneChannel } from './standaloneHost';
import { followSystemScheme } from './theme';
import { TimelineApp } from './timelineApp';
import type { SnapshotSince, TimelineSnapshot } from './timelineSnapshot';

declare global {
  interface Window {
    /** Read-only test hook: what the timeline drew last (tests and the benchmark read it). */
    __seqscopeTimeline?: { snapshot(since?: SnapshotSince): TimelineSnapshot };
  }
}

function boot(): void {
  performance.mark('seqscope:boot');
  const container = document.getElementById('seqscope-root') ?? document.body;
  const api = vscodeApi();
  if (api) {
    // The extension embeds the first view (init and first page) when it has a session to show.
    start(vscodeChannel(api, readJsonBlock<StandalonePreview>(document, PREVIEW_ELEMENT_ID)), container);
    return;
  }
  if (!hasEmbeddedSession()) {
    fail(container, 'No session: open this view from VS Code (SeqScope: Show Timeline) or from a standalone export.');
    return;
  }
  followSystemScheme();
  let channel: HostChannel;
  try {
    // Answers from the export's preview at once; the session itself is decoded once parsed.
    channel = standaloneChannel();
  } catch (e) {
    fail(container, `This export could not be read: ${(e as Error).message}`);
    return;
  }
  start(channel, container);
}

function start(channel: HostChannel, container: HTMLElement): void {
  const app = new TimelineApp(channel, container);
  Object.defineProperty(window, '__seqscopeTimeline', {
    value: Object.freeze({ snapshot: (since?: SnapshotSince) => app.snapshot(since) }),
    writable: false,
    configurable: false,
  });
}

function fail(container: HTMLElement, message: string): void {
  const p = document.createElement('p');
  p.className = 'ss-error';
  p.setAttribute('role', 'alert');
  p.textContent = message;
  container.append(p);
}

// A standalone export places this script before its large session block, to paint from the
// preview while the browser is still parsing: boot as soon as <body> exists. (In VS Code the
// script is at the end of <body> anyway.)
if (document.body) boot();
else document.addEventListener('DOMContentLoaded', boot, { once: true });
