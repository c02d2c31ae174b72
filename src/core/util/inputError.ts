/**
 * Errors by kind. An `InputError` is the user's input being wrong — a flag, a setting, a command
 * argument, a value typed into a prompt — and says how to write it; `fix` names where it is
 * fixed: the setting (the extension offers it) or the flag (the CLI names it, and exits 2).
 *
 * Anything else is not the user's doing. In particular a `RangeError` is not input: V8 throws one
 * for "Maximum call stack size exceeded" and invariant checks throw them; those are bugs, shown as
 * an internal error with the way to the log, never as "check your settings" and never exit 2.
 */
export interface InputFix {
  /** The setting that fixes it, e.g. `seqscope.gapTimeout`. */
  readonly setting?: string;
  /** The CLI flag that fixes it, e.g. `--gap-timeout`. */
  readonly flag?: string;
}

export class InputError extends Error {
  override readonly name = 'InputError';

  constructor(
    message: string,
    readonly fix: InputFix = {},
  ) {
    super(message);
  }
}

/**
 * Whether `e` is an InputError, also one from another bundle (dist/pubsub.js carries its own copy
 * of this class, so `instanceof` alone would miss it): by name.
 */
export function isInputError(e: unknown): e is InputError {
  return e instanceof InputError || (e instanceof Error && e.name === 'InputError');
}

/**
 * A programming error: one of JavaScript's own error types (RangeError — also V8's stack
 * overflow —, TypeError, ReferenceError, SyntaxError, EvalError, URIError) or something thrown
 * that is not an Error at all. Reported as a bug, never as the user's input.
 */
export function isProgrammingError(e: unknown): boolean {
  if (!(e instanceof Error)) return true;
  return (
    e instanceof RangeError ||
    e instanceof TypeError ||
    e instanceof ReferenceError ||
    e instanceof SyntaxError ||
    e instanceof EvalError ||
    e instanceof URIError
  );
}
