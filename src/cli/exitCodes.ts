/**
 * The CLI's exit codes, and what a failure prints: 2 for the user's input, 1 for a bug, 141 for
 * standard output closed early.
 */
import { CommanderError } from 'commander';
import { ExportError, writeError } from '../core/export/outputFile';
import { isInputError } from '../core/util/inputError';
import { redactSecrets } from '../core/util/secrets';
import { CaptureError } from '../core/capture/captureReader';
import { Io } from './cliIo';

/** 130 and 141 are what a shell reports for a process ended by SIGINT and SIGPIPE (128 + signal). */
export const EXIT = { ok: 0, failure: 1, usage: 2, findings: 3, interrupted: 130, brokenPipe: 141 } as const;
/**
 * What a failure prints and the exit code: 2 for the user's input (flags, arguments, captures that
 * cannot be read, Pub/Sub refusals with a next step), 1 for everything else (a bug: "internal
 * error", the stack with SEQSCOPE_DEBUG=1).
 */
export function exitCodeFor(e: unknown, io: Pick<Io, 'stderr'>, env: NodeJS.ProcessEnv = process.env): number {
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return EXIT.ok;
    // Commander has printed its one-line message already.
    return EXIT.usage;
  }
  // What read an exported trace on stdout went away (| head): not an error, see the exit code.
  if (e instanceof ExportError && e.code === 'EPIPE') return EXIT.brokenPipe;
  if (e instanceof ExportError) {
    io.stderr.write(`seqscope: ${e.message}: ${e.nextStep}\n`);
    return EXIT.usage;
  }
  // The user's input (flags, arguments, options; also from dist/pubsub.js, hence by name) and
  // captures that cannot be read. Not RangeError: V8's stack overflow and invariant checks are
  // bugs, reported below as internal errors (exit 1).
  if (isInputError(e) || e instanceof CaptureError) {
    io.stderr.write(`seqscope: ${e.message}\n`);
    return EXIT.usage;
  }
  // Pub/Sub failures come from the separately loaded dist/pubsub.js, so match by name, not class.
  if ((e as Error)?.name === 'PubsubError') {
    io.stderr.write(`seqscope: ${(e as Error).message}: ${(e as { nextStep: string }).nextStep}\n`);
    return EXIT.usage;
  }
  // Anything else is a bug — also a RangeError (V8's stack overflow, an invariant check): exit 1,
  // one short line, the stack with SEQSCOPE_DEBUG=1.
  io.stderr.write(internalError(e, env));
  return EXIT.failure;
}

/** "internal error: …" for stderr; the stack with SEQSCOPE_DEBUG=1; credentials a library quoted, redacted. */
export function internalError(e: unknown, env: NodeJS.ProcessEnv): string {
  const err = e instanceof Error ? e : new Error(String(e));
  return redactSecrets(`seqscope: internal error: ${err.message}${env.SEQSCOPE_DEBUG ? '\n' + err.stack : ' (set SEQSCOPE_DEBUG=1 for details)'}\n`, env);
}

/**
 * The exit code once standard output has failed: a closed pipe (`seqscope replay x --export - |
 * head`) is 141, with no message, as for a tool ended by SIGPIPE; another failure (a full disk)
 * is said once and is 2, unless the command already failed and said why.
 */
export function exitCodeAfterOutputFailure(code: number, failure: NodeJS.ErrnoException, say: (line: string) => void): number {
  if (failure.code === 'EPIPE') return EXIT.brokenPipe;
  if (code !== EXIT.ok && code !== EXIT.findings) return code;
  const e = writeError('stdout', failure);
  say(`seqscope: ${e.message}: ${e.nextStep}\n`);
  return EXIT.usage;
}
