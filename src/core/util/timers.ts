/**
 * A clock and its timers, injected wherever code waits (the live source's health looks, the
 * webview's page requests): production passes the real ones, tests a clock they move themselves,
 * so no test waits on the wall clock. `Handle` is what setTimeout returns (a number in a browser).
 */
export interface Timers<Handle = unknown> {
  now(): number;
  setTimeout(fn: () => void, ms: number): Handle;
  clearTimeout(handle: Handle): void;
}
