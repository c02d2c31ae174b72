/** Timers that fire only when a test advances the clock: `now`, `setTimeout` and `clearTimeout` as a fake pair for code that takes them injected. */
export class FakeTimers {
  private readonly due = new Map<number, { at: number; f: () => void }>();
  private next = 1;

  constructor(public t = 0) {}

  now = () => this.t;
  setTimeout = (f: () => void, ms: number) => {
    const h = this.next++;
    this.due.set(h, { at: this.t + ms, f });
    return h;
  };
  clearTimeout = (h: unknown) => void this.due.delete(h as number);

  /** Moves the clock a millisecond at a time, each timer firing at its time (timers it sets too). */
  advance(ms: number): void {
    for (let i = 0; i < ms; i++) {
      this.t++;
      for (const [h, { at, f }] of [...this.due]) {
        if (at > this.t) continue;
        this.due.delete(h);
        f();
      }
    }
  }

  get pending(): number {
    return this.due.size;
  }
}
