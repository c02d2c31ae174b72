/**
 * The end of an exhaustive `switch` over a union: `default: return assertNever(m)` fails to
 * compile while a member is unhandled, so a new message type cannot be dropped silently. Reached
 * at run time only by a value outside the type (a bug): it throws.
 */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
