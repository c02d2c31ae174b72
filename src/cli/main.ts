/**
 * `seqscope`: the sequencer on the command line, with no VS Code. Exit codes:
 *   0 success (findings are results, not errors) · 2 usage or input error · 3 a `--fail-on`
 *   finding occurred · 130 interrupted.
 */
import { Command } from 'commander';
import { Io, RegisterCommands } from './cliIo';
import { registerCompareCommand } from './compareCommand';
import { EXIT, exitCodeAfterOutputFailure, exitCodeFor, internalError } from './exitCodes';
import { registerMcpCommand } from './mcpCommand';
import { registerPubsubCommands } from './pubsubCommands';
import { registerReplayCommand } from './replayCommand';

declare const SEQSCOPE_VERSION: string;

/** The commands, in the order `seqscope --help` lists them. */
const COMMANDS: readonly RegisterCommands[] = [registerReplayCommand, registerCompareCommand, registerPubsubCommands, registerMcpCommand];

/** Runs `seqscope` with these arguments (those after the script's name); resolves to the exit code. */
export async function main(argv: string[], io: Io = process): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command('seqscope')
    .description(
      'Sequence ordered message streams (Google Pub/Sub captures, CME-style feeds): order per key, report gaps, duplicates and late messages, export the ordered trace.',
    )
    .version(typeof SEQSCOPE_VERSION === 'string' ? SEQSCOPE_VERSION : 'dev', '-V, --version')
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(`seqscope: ${s.replace(/^error: /, '')}`),
    })
    .exitOverride()
    .showSuggestionAfterError();

  const run = async (p: Promise<number>) => {
    exitCode = await p;
  };
  for (const register of COMMANDS) register(program, io, run);

  // No command at all is a usage error (a script that lost its arguments must not pass): the
  // usage goes to stderr, exit 2. `seqscope --help` stays exit 0 on stdout.
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return EXIT.usage;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    return exitCodeFor(e, io);
  }
  return exitCode;
}

if (require.main === module) {
  // Node reports a failed write to stdout as an 'error' event, which unhandled printed a stack
  // trace (`seqscope --help | head -1`). Handled here, the command still finishes its cleanup
  // (a tap is deleted) and the exit code tells what happened, whichever of the two comes first.
  let mainCode: number | undefined;
  let failure: NodeJS.ErrnoException | undefined;
  let said = false;
  const settle = () => {
    if (mainCode === undefined) return;
    process.exitCode = failure
      ? exitCodeAfterOutputFailure(mainCode, failure, (line) => {
          if (!said) process.stderr.write(line);
          said = true;
        })
      : mainCode;
  };
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    failure ??= e;
    settle();
  });
  main(process.argv.slice(2)).then(
    (code) => {
      mainCode = code;
      settle();
    },
    (e) => {
      process.stderr.write(internalError(e, process.env));
      mainCode = EXIT.failure;
      settle();
    },
  );
  // Node's own printer shows the source line of what threw: for a library parsing a key file,
  // the key. An exception no caller can catch is an internal error like any other.
  process.on('uncaughtException', (e) => {
    process.stderr.write(internalError(e, process.env));
    process.exit(EXIT.failure);
  });
}
