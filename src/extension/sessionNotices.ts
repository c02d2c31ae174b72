/**
 * Notifications that belong to a session ("the tap is gone … Re-tap"): one at a time per session
 * and subject, and settled when what they are about has passed (re-tapped, detached, closed).
 * VS Code cannot take a notification back, so a button picked on a settled one does not act:
 * it says, in words, what happened instead. No vscode import: the host's UI is injected (and a
 * fake clock in the unit tests).
 */

export type NoticeLevel = 'info' | 'warning' | 'error';

/** How a notice reaches the user: VS Code's show*Message, resolving to the button picked. */
export type ShowNotice = (level: NoticeLevel, message: string, buttons: readonly string[]) => PromiseLike<string | undefined>;

export interface Notice {
  readonly level: NoticeLevel;
  readonly message: string;
  /** The buttons, by label, and what each does while the notice holds. */
  readonly actions: Readonly<Record<string, () => unknown>>;
}

interface Shown {
  readonly owner: string;
  readonly subject: string;
  /** Set once the notice no longer holds: what the user is told on picking one of its buttons. */
  settled?: string;
}

/** A time of day as the user's clock reads it (HH:MM:SS). */
export function timeOfDay(ms: number): string {
  return new Date(ms).toTimeString().slice(0, 8);
}

export class SessionNotices {
  private readonly shown = new Set<Shown>();

  constructor(
    private readonly show: ShowNotice,
    private readonly now: () => number = Date.now,
    /** Where a failing action or notice is reported (the log). */
    private readonly problem: (message: string) => void = () => undefined,
  ) {}

  /**
   * Shows `notice` for `owner` (a live session, whatever window it shows) about `subject`; while
   * one about the same subject is on screen unanswered and still holds, nothing new is shown.
   */
  notify(owner: string, subject: string, notice: Notice): void {
    for (const s of this.shown) if (s.owner === owner && s.subject === subject && !s.settled) return;
    const entry: Shown = { owner, subject };
    this.shown.add(entry);
    Promise.resolve(this.show(notice.level, notice.message, Object.keys(notice.actions)))
      .then((pick) => {
        this.shown.delete(entry);
        if (pick === undefined) return;
        if (entry.settled) return this.show('info', entry.settled, []);
        return notice.actions[pick]?.();
      })
      .then(undefined, (e: unknown) => this.problem(`after "${notice.message}": ${(e as Error)?.message ?? e}`));
  }

  /**
   * What `owner`'s notices about `subject` (every subject without one) were about has passed:
   * `happened` says what, given the time it did ("tap · md-310 was re-tapped at 09:12:03: …").
   */
  settle(owner: string, happened: (at: string) => string, subject?: string): void {
    const words = `SeqScope: ${happened(timeOfDay(this.now()))}`;
    for (const s of this.shown) if (s.owner === owner && (subject === undefined || s.subject === subject) && !s.settled) s.settled = words;
  }

  /** Notices on screen that still hold (for the views and tests). */
  holding(owner: string): string[] {
    return [...this.shown].filter((s) => s.owner === owner && !s.settled).map((s) => s.subject);
  }
}
