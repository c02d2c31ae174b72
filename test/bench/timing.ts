/** Timing helpers shared by the benchmarks. */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Runs each contender once untimed (JIT warm-up, caches), then `reps` times, and returns each
 * one's fastest run (wall and CPU time) with that run's result. Best-of rather than mean: noise on a shared
 * machine only ever adds time. Runs are interleaved (a, b, a, b, …) so that a burst of other
 * work handicaps all contenders alike rather than whichever ran then, and garbage is collected
 * before each run so one run's garbage is not billed to the next.
 */
export function bestOfEach<R>(reps: number, fns: readonly (() => R)[]): Timed<R>[] {
  for (const fn of fns) fn();
  const best = fns.map(() => ({ ms: Infinity, cpuMs: Infinity, result: undefined as R | undefined }));
  for (let i = 0; i < reps; i++) {
    fns.forEach((fn, j) => {
      collectGarbage();
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const r = fn();
      const ms = performance.now() - t0;
      const c = process.cpuUsage(c0);
      const cpuMs = (c.user + c.system) / 1000;
      const b = best[j];
      if (ms < b.ms) best[j] = { ms, cpuMs: Math.min(b.cpuMs, cpuMs), result: r };
      else b.cpuMs = Math.min(b.cpuMs, cpuMs);
    });
  }
  return best.map((b) => ({ ms: b.ms, cpuMs: b.cpuMs, result: b.result as R }));
}

export interface Timed<R> {
  /** Best wall time, ms. */
  ms: number;
  /**
   * Best CPU time (user + system, all threads: GC helpers included), ms. Steadier than wall time
   * when other processes share the cores, since waiting for a core is not counted.
   */
  cpuMs: number;
  result: R;
}

let gc: (() => void) | undefined;

/**
 * A full GC. `npm run bench` starts node through tsx without --expose-gc, so the flag is set at
 * run time and `gc` taken from a fresh context (a V8 idiom for getting it late).
 */
export function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}
