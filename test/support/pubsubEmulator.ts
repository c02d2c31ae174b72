/**
 * Starts and stops the Google Pub/Sub emulator for the tests and benchmarks that need a real
 * Pub/Sub. Debian images of this kind ship it (google-cloud-cli-pubsub-emulator, Java 17); it
 * cannot be installed where it is missing, so callers must skip loudly when `findEmulator()`
 * returns a reason instead of a path. SEQSCOPE_PUBSUB_EMULATOR points at another launcher.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, openSync, closeSync, readFileSync, realpathSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const DEFAULT_LAUNCHER = '/usr/lib/google-cloud-sdk/platform/pubsub-emulator/bin/cloud-pubsub-emulator';

/** The launcher's path, or why there is none (to print in the skip banner). */
export function findEmulator(): { launcher: string } | { missing: string } {
  const fromEnv = process.env.SEQSCOPE_PUBSUB_EMULATOR;
  if (fromEnv) return existsSync(fromEnv) ? { launcher: fromEnv } : { missing: `SEQSCOPE_PUBSUB_EMULATOR=${fromEnv} does not exist` };
  if (existsSync(DEFAULT_LAUNCHER)) return { launcher: DEFAULT_LAUNCHER };
  // Elsewhere the SDK may live beside a gcloud on PATH.
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const gcloud = join(dir, 'gcloud');
    if (!dir || !existsSync(gcloud)) continue;
    const launcher = join(dirname(realpathSync(gcloud)), '../platform/pubsub-emulator/bin/cloud-pubsub-emulator');
    if (existsSync(launcher)) return { launcher };
  }
  return {
    missing: `the Pub/Sub emulator is not installed (no ${DEFAULT_LAUNCHER}; Debian package google-cloud-cli-pubsub-emulator, Java 17; or set SEQSCOPE_PUBSUB_EMULATOR)`,
  };
}

/** Prints the banner the brief asks for: a missing emulator is said loudly, never passed quietly. */
export function announceMissing(why: string, what: string): void {
  const bar = '!'.repeat(100);
  console.error(`${bar}\n!!! ${what} SKIPPED: ${why}\n${bar}`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export class PubsubEmulator {
  private child: ChildProcess | undefined;

  private constructor(
    readonly launcher: string,
    readonly port: number,
    readonly logPath: string,
    private readonly heapMb = 512,
  ) {}

  get host(): string {
    return `127.0.0.1:${this.port}`;
  }

  /**
   * Starts an emulator on a free port (or `port`, to restart on the same address) and waits until
   * it answers. The heap is capped (`heapMb`, default 512): uncapped it grew to 4 GB after 400 k messages.
   */
  static async start(launcher: string, port?: number, heapMb = 512): Promise<PubsubEmulator> {
    const p = port ?? (await freePort());
    const emu = new PubsubEmulator(launcher, p, join(tmpdir(), `seqscope-pubsub-emulator-${p}.log`), heapMb);
    await emu.launch();
    return emu;
  }

  /** Starts it again on the same port (all topics and subscriptions are gone: it keeps state in memory). */
  async restart(): Promise<void> {
    await this.stop();
    await this.launch();
  }

  private async launch(): Promise<void> {
    // A second emulator on a busy port hangs after a BindException while a probe answers from the
    // old one, so make sure the port is ours first.
    if (await answers(this.host, 300)) throw new Error(`port ${this.port} already has an emulator (or something else) on it`);
    const log = openSync(this.logPath, 'w');
    try {
      this.child = spawn(this.launcher, [`--host=127.0.0.1`, `--port=${this.port}`], {
        env: { ...process.env, CLOUD_PUBSUB_EMULATOR_OPTS: `-Xmx${this.heapMb}m` },
        stdio: ['ignore', log, log],
        detached: true, // its own process group, so stop() reaches the JVM the launcher execs
      });
    } finally {
      closeSync(log);
    }
    const child = this.child;
    let exited: string | undefined;
    child.once('exit', (code, signal) => (exited = `exited (${code ?? signal})`));
    const deadline = Date.now() + 60_000;
    while (!(await answers(this.host, 1000))) {
      if (exited) throw new Error(`the Pub/Sub emulator ${exited} before answering; log ${this.logPath}:\n${tail(this.logPath)}`);
      if (Date.now() > deadline) {
        await this.stop();
        throw new Error(`the Pub/Sub emulator did not answer on ${this.host} within 60 s; log ${this.logPath}:\n${tail(this.logPath)}`);
      }
      await sleep(100);
    }
  }

  /** SIGTERM to the process group (clean shutdown in under a second), SIGKILL if it lingers. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      return;
    }
    const killed = await Promise.race([gone.then(() => true), sleep(5000).then(() => false)]);
    if (!killed) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
      await gone;
    }
  }

  /** Kills it without a clean shutdown, as a crash would. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      return;
    }
    await gone;
  }
}

/** True when GET / on host answers (the emulator answers "Ok"). */
async function answers(host: string, timeoutMs: number): Promise<boolean> {
  try {
    const res = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(timeoutMs) });
    return res.ok;
  } catch {
    return false;
  }
}

function tail(path: string): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}
