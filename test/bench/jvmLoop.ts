/**
 * The CME sample's loop on the JVM (test/bench/jvm/CmeLoop.java): found on PATH, compiled with
 * javac into a scratch folder, run with `java -cp` on a stream file (jvmStream.ts).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const CME_LOOP_SOURCE = join(__dirname, 'jvm', 'CmeLoop.java');

export interface Jdk {
  /** `java -version`, on one line (e.g. "openjdk version "17.0.15" … OpenJDK 64-Bit Server VM …"). */
  readonly version: string;
}

/** The JDK on PATH, or why there is none to use (the bench then says it skipped the JVM). */
export function findJdk(): Jdk | { readonly missing: string } {
  const javac = spawnSync('javac', ['-version'], { encoding: 'utf8' });
  if (javac.error || javac.status !== 0) return { missing: 'no javac on PATH' };
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (java.error || java.status !== 0) return { missing: 'no java on PATH' };
  return {
    version: java.stderr
      .trim()
      .split('\n')
      .map((l) => l.trim())
      .join('; '),
  };
}

/**
 * Compiles CmeLoop.java into a folder under `scratch` named by the source's hash (kept: javac
 * takes a second or more, and an unchanged source need not be compiled again); returns the class
 * path to run it with.
 */
export function compileCmeLoop(scratch: string): string {
  const hash = createHash('sha256').update(readFileSync(CME_LOOP_SOURCE)).digest('hex').slice(0, 16);
  const dir = join(scratch, `cmeloop-${hash}`);
  if (existsSync(join(dir, 'CmeLoop.class'))) return dir;
  mkdirSync(scratch, { recursive: true });
  // Into a folder of its own, then renamed: a concurrent compile never sees half a folder.
  const tmp = mkdtempSync(`${dir}.tmp-`);
  try {
    const r = spawnSync('javac', ['-d', tmp, CME_LOOP_SOURCE], { encoding: 'utf8' });
    if (r.error) throw r.error;
    if (r.status !== 0) throw new Error(`javac ${CME_LOOP_SOURCE} exited ${r.status ?? r.signal}: ${r.stderr}`);
    if (!existsSync(dir)) renameSync(tmp, dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}

export interface JvmCounts {
  delivered: number;
  duplicates: number;
  gaps: number;
  lost: number;
}

/** What one JVM printed (see CmeLoop.java). */
export interface JvmRun {
  readonly vm: string;
  /** The garbage collectors the JVM chose (its defaults: no flags are given). */
  readonly gc: string[];
  readonly messages: number;
  readonly warmups: number;
  /** Each timed pass, in order, ms. */
  readonly wallMs: number[];
  readonly cpuMs: number[];
  readonly counts: JvmCounts;
}

/**
 * Runs the loop in a fresh JVM: `warmups` untimed passes over the stream, then `passes` timed
 * ones; `flags` go to the JVM (none: its defaults, as the sample would run).
 */
export function runCmeLoop(classPath: string, streamFile: string, warmups: number, passes: number, flags: readonly string[] = []): JvmRun {
  const r = spawnSync('java', [...flags, '-cp', classPath, 'CmeLoop', streamFile, String(warmups), String(passes)], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`java CmeLoop ${streamFile} exited ${r.status ?? r.signal}: ${r.stderr.slice(-2000)}`);
  return JSON.parse(r.stdout) as JvmRun;
}

/** Differences between the JVM's counts and the TypeScript port's on the same stream; empty when they agree. */
export function countDifferences(jvm: JvmCounts, ts: JvmCounts): string[] {
  return (['delivered', 'duplicates', 'gaps', 'lost'] as const).filter((k) => jvm[k] !== ts[k]).map((k) => `JVM ${k} ${jvm[k]} ≠ TS ${ts[k]}`);
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
