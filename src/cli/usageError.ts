import { InputError } from '../core/util/inputError';

/**
 * The CLI's one usage error: a flag or argument is wrong. Printed as one line, exit 2 — as is
 * every InputError (a bad duration or sequencing option from the core says the same).
 * Anything else that goes wrong is an internal error: exit 1 (main.ts).
 */
export class UsageError extends InputError {
  constructor(message: string, flag?: string) {
    super(message, flag ? { flag } : {});
  }
}
