/**
 * One request/reply channel for whoever answers the timeline webview: the extension's timeline
 * controller, the in-page host of a standalone export, and the webview's own front that answers
 * from the embedded first view. Generic over the request and reply types; DOM-free.
 *
 * What answers changes by stage (nothing yet, a preview, the session): `answerWith` installs the
 * next answerer. A request the current stage cannot answer waits for the next one, in order.
 * Every stage has a generation: a reply computed under an earlier stage is dropped here, the one
 * place stale replies are dropped on the host side.
 */

/** What a stage answers to a request: `{ reply }`, `{}` (handled, nothing to say), or undefined: wait for the next stage. */
export type Answer<Rep> = { reply?: Rep } | undefined;

/** Answers one request (synchronously or not). Throwing reports the failure through `failed`. */
export type Answerer<Req, Rep> = (req: Req) => Answer<Rep> | Promise<Answer<Rep>>;

export interface RequestChannelOptions<Req, Rep> {
  /** Sends a reply to the other side. */
  reply(rep: Rep): void;
  /** A request whose answer threw: the channel goes on with the next one. */
  failed(req: Req, error: unknown): void;
  /**
   * Requests handled one at a time, in order (a page reply never overtakes a filter), when true;
   * else each is started as it comes and its reply sent when ready.
   */
  ordered: boolean;
  /** Whether a waiting request is made useless by one behind it (a page by a newer page): it is skipped. */
  superseded?(req: Req, behind: readonly Req[]): boolean;
}

export class RequestChannel<Req, Rep> {
  private answerer: Answerer<Req, Rep> | undefined;
  private stage = 0;
  private readonly queue: Req[] = [];
  private running = false;
  /** A stage was installed while the queue was being worked through: look at it again. */
  private again = false;
  private disposed = false;

  constructor(private readonly options: RequestChannelOptions<Req, Rep>) {}

  /** The current stage's number: a reply computed under an earlier one is stale. */
  get generation(): number {
    return this.stage;
  }

  /** Requests waiting for a stage that can answer them. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * From now on `answer` answers (undefined: every request waits). Replies still being computed
   * by the previous stage are dropped — an answerer that installs the next stage drops its own
   * reply, so keep such state inside it; waiting requests go to the new one, unless `drop`.
   */
  answerWith(answer: Answerer<Req, Rep> | undefined, drop = false): void {
    this.stage++;
    this.answerer = answer;
    if (drop) this.queue.length = 0;
    this.again = true;
    void this.pump();
  }

  request(req: Req): void {
    if (this.disposed) return;
    this.queue.push(req);
    void this.pump();
  }

  /** Nothing is answered any more; what waits is dropped. */
  dispose(): void {
    this.disposed = true;
    this.answerer = undefined;
    this.queue.length = 0;
    this.stage++;
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.again = false;
    try {
      // Replies are asynchronous, whoever answers: as they are from another thread.
      await Promise.resolve();
      while (this.queue.length && this.answerer && !this.disposed) {
        const req = this.queue[0];
        if (this.options.superseded?.(req, this.queue.slice(1))) {
          this.queue.shift();
          continue;
        }
        const stage = this.stage;
        let pending: Answer<Rep> | Promise<Answer<Rep>>;
        try {
          pending = this.answerer(req);
        } catch (e) {
          this.queue.shift();
          this.options.failed(req, e);
          continue;
        }
        if (pending === undefined) break; // this stage cannot answer it: it waits, and what is behind it too
        this.queue.shift();
        const done = this.settle(req, stage, pending);
        if (this.options.ordered) await done;
      }
    } finally {
      this.running = false;
    }
    // A stage installed while the queue was being worked through finds what still waits.
    if (this.again && this.queue.length) void this.pump();
  }

  private async settle(req: Req, stage: number, pending: Answer<Rep> | Promise<Answer<Rep>>): Promise<void> {
    let answer: Answer<Rep>;
    try {
      answer = await pending;
    } catch (e) {
      if (stage === this.stage) this.options.failed(req, e);
      return;
    }
    if (stage !== this.stage || this.disposed) return;
    if (answer?.reply !== undefined) this.options.reply(answer.reply);
  }
}
