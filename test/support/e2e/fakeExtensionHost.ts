/**
 * A stand-in for the extension host, to drive the timeline bundle as VS Code would: the page
 * gets `acquireVsCodeApi` (an init script), its postMessage calls land here (an exposed
 * function), and replies go back as window 'message' events. Data requests are answered by the
 * real TimelineService over a real session; replay actions move a real ReplayCursor. The page has
 * a CSP like VS Code's webview (no inline handlers, script and style by nonce).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { SequencingOptions } from '../../../src/core/sequencer/sequencingOptions';
import type { CaptureSession } from '../../../src/timeline/captureSession';
import { assertNever } from '../../../src/core/util/assertNever';
import { ReplayCursor } from '../../../src/timeline/replayCursor';
import { PayloadDecode, RecordSource, TimelineService } from '../../../src/timeline/timelineService';
import type { HostMessage, ReplayInfo, ReplaySpeed, WebviewMessage } from '../../../src/shared/protocol';
import { IDLE_REPLAY } from '../../../src/shared/protocol';
import { OpenedPage, RESULTS_DIR, ROOT, settled } from './browser';

export interface FakeHost {
  opened: OpenedPage;
  /** Every message the webview sent, in order. */
  received: WebviewMessage[];
  /** What the webview last stored with setState. */
  state(): unknown;
  send(msg: HostMessage): Promise<void>;
  replay(): ReplayInfo;
}

export async function openInFakeHost(
  browser: Browser,
  session: CaptureSession,
  options: SequencingOptions,
  records: RecordSource,
  title: string,
  /** How the host decodes a payload with a schema for the detail pane (the session's `detailDecoder`). */
  decode?: PayloadDecode,
): Promise<FakeHost> {
  const nonce = randomBytes(16).toString('base64');
  const js = readFileSync(join(ROOT, 'dist', 'webview', 'timeline.js'), 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
  const css = readFileSync(join(ROOT, 'media', 'timeline.css'), 'utf8');
  // VS Code defines the theme variables and the body class itself; a dark theme's few here.
  const vars =
    '--vscode-editor-background:#1e1e1e;--vscode-foreground:#cccccc;--vscode-descriptionForeground:#9d9d9d;--vscode-focusBorder:#007fd4;--vscode-charts-red:#f14c4c;--vscode-charts-blue:#3794ff;--vscode-charts-green:#89d185;--vscode-charts-orange:#d18616;--vscode-charts-purple:#b180d7;--vscode-charts-yellow:#cca700;--vscode-font-family:sans-serif;--vscode-font-size:13px;--vscode-button-background:#0e639c;--vscode-button-foreground:#ffffff;--vscode-editorWidget-border:#454545;--vscode-icon-foreground:#cccccc';
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src data:; font-src file:">
<link rel="icon" href="data:,">
<link rel="stylesheet" id="vscode-codicon-stylesheet" href="${pathToFileURL(join(ROOT, 'dist', 'codicons', 'codicon.css')).href}" nonce="${nonce}">
<style nonce="${nonce}">:root{${vars}}</style><style nonce="${nonce}">${css}</style></head>
<body class="vscode-dark"><script nonce="${nonce}">${js.replace(/<\/(script)/gi, '<\\/$1')}</script></body></html>`;
  const file = join(RESULTS_DIR, 'vscode-host.html');
  writeFileSync(file, html);

  const service = new TimelineService(session, { id: 'fake-host-session', title, options: 'cme preset' }, records, undefined, decode);
  const cursor = new ReplayCursor(session, options);
  let replay: ReplayInfo = IDLE_REPLAY;
  let stored: unknown;
  const received: WebviewMessage[] = [];

  const page: Page = await browser.newPage({ viewport: { width: 1280, height: 760 } });
  const errors: string[] = [];
  const dialogs: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  if (process.env.SEQSCOPE_DEBUG) {
    page.on('console', (m) => console.error('[page]', m.type(), m.text()));
    page.on('pageerror', (e) => console.error('[page error]', e));
  }
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const send = async (msg: HostMessage) => {
    await page.evaluate(
      (m) => (globalThis as unknown as { postMessage(m: unknown, o: string): void }).postMessage(m, '*'),
      msg as unknown as Record<string, unknown>,
    );
  };
  const moveTo = async (position: number, playing = false) => {
    const state = cursor.stateAt(position);
    service.position = state.position;
    replay = { ...replay, playing, active: true, state };
    await send({ type: 'replay', replay });
  };
  await page.exposeFunction('__seqscopeFakeHost', async (raw: string) => {
    const msg = JSON.parse(raw) as WebviewMessage;
    received.push(msg);
    const position = replay.state?.position ?? 0;
    switch (msg.type) {
      case 'ready':
        await send({ type: 'init', session: service.info(), overview: service.overview(), filter: service.currentFilter, keyOrder: service.keyOrder, replay });
        return;
      case 'replay': {
        const a = msg.action;
        if (a === 'play' || a === 'pause') {
          replay = { ...replay, playing: a === 'play' };
          await send({ type: 'replay', replay });
          return;
        }
        const next = (kind: 'gap' | 'duplicate' | 'late' | 'reordered' | 'reset') => session.nextPositionOf(kind, position) ?? position;
        const to = {
          stepForward: position + 1,
          stepBack: position - 1,
          toStart: 0,
          toEnd: cursor.end,
          nextGap: next('gap'),
          nextDuplicate: next('duplicate'),
          nextLate: next('late'),
          nextReordered: next('reordered'),
          nextReset: next('reset'),
        }[a];
        await moveTo(to);
        return;
      }
      case 'seek':
        await moveTo(msg.position);
        return;
      case 'setSpeed':
        replay = { ...replay, speed: msg.speed as ReplaySpeed };
        await send({ type: 'replay', replay });
        return;
      case 'requestPage':
      case 'requestDetail':
      case 'setFilter':
      case 'setKeyOrder': {
        const reply = await service.handle(msg).catch((e: Error) => ({ type: 'error', message: e.message }) as HostMessage);
        if (reply) await send(reply);
        return;
      }
      case 'select':
      case 'painted':
      case 'liveDrawn':
      case 'liveResync':
        // Not live: nothing to say.
        return;
      default:
        assertNever(msg, 'message from the timeline');
    }
  });
  await page.exposeFunction('__seqscopeFakeState', (raw: string) => void (stored = JSON.parse(raw)));
  // A string, not a function: the TypeScript loader would wrap a function with helpers the
  // page does not have.
  await page.addInitScript(`(() => {
    let state;
    let acquired = false;
    window.acquireVsCodeApi = () => {
      // VS Code allows one call; a second would be a bug in the webview.
      if (acquired) throw new Error('acquireVsCodeApi called twice');
      acquired = true;
      return {
        postMessage: (m) => void window.__seqscopeFakeHost(JSON.stringify(m)),
        getState: () => state,
        setState: (s) => { state = s; void window.__seqscopeFakeState(JSON.stringify(s)); },
      };
    };
  })()`);
  await page.goto(`file://${file}`);
  await settled(page);
  return { opened: { page, errors, dialogs }, received, state: () => stored, send, replay: () => replay };
}
