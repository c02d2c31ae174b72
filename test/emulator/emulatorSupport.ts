/**
 * What the emulator tests share: one emulator for the tier (started on first use, stopped by the
 * root hook in hooks.ts), the built CLI, a project id, unique names, and helpers to run the CLI
 * as a process and wait for conditions. Where the emulator is missing, every suite that asks for
 * it is skipped — with a banner, never passed.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'mocha';
import { connect, PubsubConnection } from '../../src/pubsub/connection';
import { buildCli } from '../support/builtCli';
import { announceMissing, findEmulator, PubsubEmulator } from '../support/pubsubEmulator';

export const PROJECT = 'seqscope-test';

let shared: Promise<PubsubEmulator> | undefined;
let announced = false;
let cliPath: Promise<string> | undefined;

/** The tier's emulator; skips the calling suite (loudly) where there is none. */
export async function emulatorOrSkip(ctx: Context): Promise<PubsubEmulator> {
  const found = findEmulator();
  if ('missing' in found) {
    if (!announced) announceMissing(found.missing, 'Pub/Sub emulator tests');
    announced = true;
    ctx.skip();
  }
  shared ??= PubsubEmulator.start((found as { launcher: string }).launcher);
  return shared;
}

export async function stopSharedEmulator(): Promise<void> {
  const s = shared;
  shared = undefined;
  if (s) await (await s).stop();
}

export function connectTo(emu: PubsubEmulator): Promise<PubsubConnection> {
  return connect({ emulatorHost: emu.host, projectId: PROJECT, env: {} });
}

let counter = 0;
/** A resource id no other test uses. */
export function uniqueId(prefix: string): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter++}`;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'seqscope-emu-'));
}

/**
 * The CLI, built once per run into a temp folder (with dist/pubsub.js beside it); or the cli.js
 * SEQSCOPE_EMULATOR_CLI names (built from another commit, to compare a figure before and after).
 */
export function cli(): Promise<string> {
  const other = process.env.SEQSCOPE_EMULATOR_CLI;
  cliPath ??= other ? Promise.resolve(other) : buildCli(tempDir(), { withPubsub: true });
  return cliPath;
}

export interface CliRun {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  exited: Promise<number>;
}

/** Starts `seqscope args…` against the emulator, with `input` piped to its standard input (and `env` added); collects its output. */
export async function startCli(emu: PubsubEmulator, args: string[], input?: Buffer, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [await cli(), ...args], {
    env: { ...process.env, PUBSUB_EMULATOR_HOST: emu.host, PUBSUB_PROJECT_ID: PROJECT, ...env },
    stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  if (input) child.stdin!.end(input);
  const run: CliRun = {
    child,
    stdout: '',
    stderr: '',
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : -1)))),
  };
  child.stdout!.on('data', (d) => (run.stdout += d));
  child.stderr!.on('data', (d) => (run.stderr += d));
  return run;
}

export async function runCli(
  emu: PubsubEmulator,
  args: string[],
  input?: Buffer,
  env?: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await startCli(emu, args, input, env);
  const code = await r.exited;
  return { code, stdout: r.stdout, stderr: r.stderr };
}

/** Polls until `cond` holds; throws with `what` after `timeoutMs`. */
export async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(50);
  }
}

/**
 * The usual suite setup: the tier's emulator (or a loud skip) and a connection to it, closed
 * after the suite. Read `emu` and `conn` inside tests.
 */
export function useEmulator(): { readonly emu: PubsubEmulator; readonly conn: PubsubConnection } {
  const state = {} as { emu: PubsubEmulator; conn: PubsubConnection };
  before(async function () {
    state.emu = await emulatorOrSkip(this);
    state.conn = await connectTo(state.emu);
  });
  after(async () => state.conn?.close());
  return state;
}
