/**
 * A live session's state as it crosses to the webview: one whole `init`, then `liveUpdate`s that
 * carry only what changed since the one before (shared/tailPatch.ts), each numbered. The host
 * sends the next only once the webview has drawn the last (`liveDrawn`), and none while nothing
 * changed; a webview that missed one (reloaded, or an update it cannot place) asks for the whole
 * state (`liveResync`). Both ends are here, in plain code, so that a test can run them together.
 */
import type { HostMessage } from './protocol';
import { applyPatch, diffPatch } from './tailPatch';

export type InitMessage = Extract<HostMessage, { type: 'init' }>;
export type LiveUpdateMessage = Extract<HostMessage, { type: 'liveUpdate' }>;

/** The host's end, for one webview. */
export class LiveSender {
  /** The state the webview has (or will have once the message in flight arrives), without its number. */
  private last: InitMessage | undefined;
  private seq = 0;
  /** The number sent and not yet drawn. */
  private inFlight: number | undefined;
  /** The state changed while one was in flight: the next goes when it is drawn. */
  private owed = false;

  /** Whether an update may go now (none in flight); when not, one is owed for when it is drawn. */
  mayPost(): boolean {
    if (this.inFlight === undefined) return true;
    this.owed = true;
    return false;
  }

  /** The whole state, numbered: the updates that follow change it. */
  full(init: InitMessage): InitMessage {
    this.last = init;
    this.inFlight = ++this.seq;
    this.owed = false;
    return { ...init, liveSeq: this.seq };
  }

  /** What changed since the last state sent; undefined when nothing did (or there is no state to change: send it whole). */
  update(init: InitMessage): LiveUpdateMessage | undefined {
    const last = this.last;
    if (!last) return undefined;
    this.owed = false;
    const patch = diffPatch(last, init);
    if (!patch) return undefined;
    this.last = init;
    this.inFlight = ++this.seq;
    return { type: 'liveUpdate', seq: this.seq, patch };
  }

  /** Whether there is a state an update can change (else the next is sent whole). */
  get started(): boolean {
    return this.last !== undefined;
  }

  /** The webview drew state `seq`; true when an update is owed and may go now. */
  drawn(seq: number): boolean {
    if (seq !== this.inFlight) return false;
    this.inFlight = undefined;
    return this.owed;
  }

  /** The webview is gone or shows another session: the next state goes whole. */
  reset(): void {
    this.last = undefined;
    this.inFlight = undefined;
    this.owed = false;
  }
}

/** The webview's end: the `init` each message makes, from the last one it had. */
export class LiveReceiver {
  private last: InitMessage | undefined;

  /**
   * An `init` (a live one is the base of the updates that follow), or an update: the `init` it
   * makes of the last; undefined when it does not follow the last (the whole state is needed).
   */
  receive(m: InitMessage | LiveUpdateMessage): InitMessage | undefined {
    if (m.type === 'init') {
      this.last = m.liveSeq === undefined ? undefined : m;
      return m;
    }
    const last = this.last;
    if (!last || last.liveSeq !== m.seq - 1) {
      this.last = undefined;
      return undefined;
    }
    const next: InitMessage = { ...(applyPatch(last, m.patch) as InitMessage), liveSeq: m.seq };
    if (m.sentAt !== undefined) next.sentAt = m.sentAt;
    else delete next.sentAt;
    this.last = next;
    return next;
  }
}
