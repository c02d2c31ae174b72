/** What every command is handed: the streams it uses, and how its result becomes the exit code. */
import { Command } from 'commander';
import { Writable } from 'node:stream';
import { StandardInput } from './standardInput';

export interface Io {
  stdout: Writable;
  stderr: Writable;
  /** Where `replay -`, `compare -` and `publish -` read a capture from. */
  stdin?: StandardInput;
}

/** Hands an action's exit code to `main` (a commander action cannot return one). */
export type RunAction = (p: Promise<number>) => Promise<void>;

/** Adds a command (or a family of them) to the program. */
export type RegisterCommands = (program: Command, io: Io, run: RunAction) => void;
