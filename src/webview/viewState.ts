/**
 * The state VS Code keeps for the panel (the webview's getState / setState; absent standalone):
 * the window and the lane scroll, per session, saved half a second after the view last moved;
 * and the host's restore descriptor (its `persist` message), saved at once, which the panel
 * serializer reads to reopen the timeline after a window reload.
 */
import type { PanelRestore } from '../shared/protocol';
import type { HostChannel } from './hostChannel';
import type { LaneScroll, Viewport } from './viewport';

interface SavedState {
  sessionId?: string;
  t0?: number;
  t1?: number;
  scrollY?: number;
  /** What the host needs to reopen the panel after a window reload (its `persist` message). */
  restore?: PanelRestore;
}

const SAVE_AFTER_MS = 500;

export class ViewState {
  private timer: number | undefined;
  /** Kept from before a reload until the host says it again. */
  private restoreInfo: PanelRestore | undefined;

  constructor(
    private readonly channel: HostChannel,
    private readonly current: () => { sessionId: string; vp: Viewport; scroll: LaneScroll } | undefined,
  ) {
    this.restoreInfo = this.saved()?.restore;
  }

  private saved(): SavedState | undefined {
    return this.channel.getState?.() as SavedState | undefined;
  }

  /** Shows the window and scroll saved for this session, if any. */
  restore(sessionId: string, vp: Viewport, scroll: LaneScroll): void {
    const saved = this.saved();
    if (saved && saved.sessionId === sessionId && saved.t0 !== undefined && saved.t1 !== undefined && saved.t1 > saved.t0) {
      vp.show(saved.t0, saved.t1);
      scroll.scrollTo(saved.scrollY ?? 0);
    }
  }

  /** The host's restore descriptor: kept at once, since a reload right after would otherwise lose it. */
  persist(restore: PanelRestore | undefined): void {
    this.restoreInfo = restore;
    this.channel.setState?.({ ...this.saved(), restore } satisfies SavedState);
  }

  saveSoon(): void {
    if (!this.channel.setState || this.timer !== undefined) return;
    this.timer = window.setTimeout(() => {
      this.timer = undefined;
      const c = this.current();
      if (!c) return;
      const st: SavedState = { sessionId: c.sessionId, t0: c.vp.t0, t1: c.vp.t1, scrollY: c.scroll.scrollY, restore: this.restoreInfo };
      this.channel.setState?.(st);
    }, SAVE_AFTER_MS);
  }
}
