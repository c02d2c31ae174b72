import assert from 'node:assert/strict';
import { EXIT, exitCodeFor } from '../../../src/cli/exitCodes';
import { UsageError } from '../../../src/cli/usageError';
import { HistoryArena } from '../../../src/core/sequencer/historyArena';
import { resolveOptions } from '../../../src/core/sequencer/sequencingOptions';
import { parseDuration } from '../../../src/core/util/duration';
import { thrown } from '../../support/thrown';

/** What `exitCodeFor` prints for `e` and the code it returns. */
function failWith(e: unknown, env: NodeJS.ProcessEnv = {}): { code: number; stderr: string } {
  let stderr = '';
  const code = exitCodeFor(e, { stderr: { write: (s: string) => ((stderr += s), true) } as never }, env);
  return { code, stderr };
}

describe('CLI exit codes by kind of error', () => {
  it("exits 2 with one line for the user's input: flags, durations, sequencing options", () => {
    for (const e of [
      new UsageError('--format must be one of jsonl', '--format'),
      thrown(() => parseDuration('10x')),
      thrown(() => resolveOptions({ gapTimeout: 'soon' })),
    ]) {
      const { code, stderr } = failWith(e);
      assert.equal(code, EXIT.usage, String(e));
      assert.equal(stderr, `seqscope: ${(e as Error).message}\n`);
    }
  });

  it('exits 1, "internal error", for a stack overflow: a RangeError from V8 is not the user\'s input', () => {
    const recurse = (n: number): number => recurse(n + 1) + 1;
    const overflow = thrown(() => recurse(0));
    assert.ok(overflow instanceof RangeError, 'V8 throws a RangeError');
    const { code, stderr } = failWith(overflow);
    assert.equal(code, EXIT.failure);
    assert.match(stderr, /^seqscope: internal error: Maximum call stack size exceeded \(set SEQSCOPE_DEBUG=1 for details\)\n$/);
  });

  it('exits 1 for an invariant check, with the stack under SEQSCOPE_DEBUG', () => {
    const invariant = thrown(() => new HistoryArena(3));
    assert.ok(invariant instanceof RangeError);
    assert.equal(failWith(invariant).code, EXIT.failure);
    const debug = failWith(invariant, { SEQSCOPE_DEBUG: '1' });
    assert.equal(debug.code, EXIT.failure);
    assert.match(debug.stderr, /^seqscope: internal error: ringSize must be a power of two\n.*RangeError: ringSize must be a power of two\n\s+at /s);
  });

  it('exits 1 for something thrown that is not an Error', () => {
    const { code, stderr } = failWith('a string');
    assert.equal(code, EXIT.failure);
    assert.match(stderr, /^seqscope: internal error: a string /);
  });
});
