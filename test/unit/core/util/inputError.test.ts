import assert from 'node:assert/strict';
import { InputError, isInputError, isProgrammingError } from '../../../../src/core/util/inputError';
import { HistoryArena } from '../../../../src/core/sequencer/historyArena';
import { resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { thrown } from '../../../support/thrown';

describe('errors by kind', () => {
  it('an input error names the setting and the flag that fix it', () => {
    const e = thrown(() => resolveOptions({ gapTimeout: 'soon' }));
    assert.ok(isInputError(e));
    assert.deepEqual(e.fix, { setting: 'seqscope.gapTimeout', flag: '--gap-timeout' });
    assert.equal(isProgrammingError(e), false);
    const bits = thrown(() => resolveOptions({ seqBits: 12 }));
    assert.ok(isInputError(bits));
    assert.deepEqual(bits.fix, { setting: 'seqscope.seqBits', flag: '--seq-bits' });
  });

  it('is recognised by name from another bundle (dist/pubsub.js has its own copy of the class)', () => {
    const foreign = Object.assign(new Error('pace "x0" is not original, max or xN'), { name: 'InputError', fix: { flag: '--pace' } });
    assert.ok(!(foreign instanceof InputError));
    assert.ok(isInputError(foreign));
  });

  it('a stack overflow is a programming error, not input', () => {
    const recurse = (n: number): number => recurse(n + 1) + 1;
    const overflow = thrown(() => recurse(0));
    assert.ok(overflow instanceof RangeError);
    assert.equal(isInputError(overflow), false);
    assert.equal(isProgrammingError(overflow), true);
  });

  it('an invariant RangeError is a programming error, not input', () => {
    const invariant = thrown(() => new HistoryArena(3));
    assert.equal(isInputError(invariant), false);
    assert.equal(isProgrammingError(invariant), true);
    assert.equal(isProgrammingError(new TypeError('x is undefined')), true);
    assert.equal(isProgrammingError('thrown string'), true);
  });

  it('a plain Error (a file that cannot be read, a state) is neither', () => {
    const e = new Error('cannot list the recordings in /x: EACCES');
    assert.equal(isInputError(e), false);
    assert.equal(isProgrammingError(e), false);
  });
});
