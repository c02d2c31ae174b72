import assert from 'node:assert/strict';
import { exportFilterFromFlags, messageQueryFromFlags, parseNameList } from '../../../src/cli/exportFilterFlags';
import { UsageError } from '../../../src/cli/usageError';
import { InputError } from '../../../src/core/util/inputError';

describe('replay export filter flags', () => {
  it('turns the flags into the extension’s filter: kinds (plural too), keys, ranges, an attribute', () => {
    assert.equal(exportFilterFromFlags({}, 64), undefined);
    assert.deepEqual(exportFilterFromFlags({ only: 'gaps, late,gap' }, 64), { kinds: ['gap', 'late'] });
    assert.deepEqual(exportFilterFromFlags({ onlyKey: ['310', 'a,b'] }, 64), { keys: ['310', 'a,b'] });
    assert.deepEqual(exportFilterFromFlags({ numbers: '100-200' }, 64), { seqFrom: 100, seqTo: 200 });
    assert.deepEqual(exportFilterFromFlags({ numbers: '7' }, 64), { seqFrom: 7, seqTo: 7 });
    assert.deepEqual(exportFilterFromFlags({ numbers: '65000-' }, 64), { seqFrom: 65000, seqTo: undefined });
    assert.deepEqual(exportFilterFromFlags({ numbers: '-5' }, 64), { seqFrom: undefined, seqTo: 5 });
    assert.deepEqual(exportFilterFromFlags({ where: 'Channel=310' }, 64), { attribute: { name: 'Channel', value: '310' } });
    assert.deepEqual(exportFilterFromFlags({ where: 'note=a=b' }, 64), { attribute: { name: 'note', value: 'a=b' } }, 'the first = splits');
  });

  it('takes a range through the wrap where numbers wrap, and says why not where they do not', () => {
    assert.deepEqual(exportFilterFromFlags({ numbers: '65530-5' }, 16), { seqFrom: 65530, seqTo: 5 });
    assert.deepEqual(exportFilterFromFlags({ numbers: '4294967290-9' }, 32), { seqFrom: 4294967290, seqTo: 9 });
    assert.throws(() => exportFilterFromFlags({ numbers: '9-3' }, 64), /FROM is above TO, and 64-bit numbers do not wrap: write the lower number first/);
    assert.throws(() => exportFilterFromFlags({ numbers: '65530-65536' }, 16), /16-bit numbers end at 65535/);
    assert.throws(() => exportFilterFromFlags({ numbers: '70000-5' }, 16), /16-bit numbers end at 65535/);
    assert.throws(() => exportFilterFromFlags({ numbers: '70000-' }, 16), /16-bit numbers end at 65535/, 'an open end too');
  });

  it('says what is wrong with a bad flag', () => {
    const bad: [object, RegExp][] = [
      [{ only: 'gapz' }, /^--only "gapz" is not a kind of event: use message,gap,duplicate,late,reordered,invalid,reset$/],
      [{ only: ' , ' }, /^--only needs at least one of/],
      [{ numbers: '9-3' }, /FROM is above TO/],
      [{ numbers: 'x' }, /is not a range/],
      [{ numbers: '-' }, /is not a range/],
      [{ numbers: '1 2' }, /is not a range/],
      [{ where: '=310' }, /is not name=value/],
      [{ where: 'Channel' }, /is not name=value/],
    ];
    for (const [flags, message] of bad)
      assert.throws(
        () => exportFilterFromFlags(flags, 64),
        (e: unknown) => e instanceof UsageError && message.test(e.message),
        JSON.stringify(flags),
      );
    assert.deepEqual(parseNameList('gaps,late', ['gap', 'late'] as const, '--fail-on', 'a finding'), ['gap', 'late']);
  });

  it('turns --grep and --message-id into a message query; a bad pattern or an empty value is a usage error', () => {
    assert.equal(messageQueryFromFlags({}), undefined);
    assert.deepEqual(messageQueryFromFlags({ grep: 'ES[HZ]6' }), { payload: { source: 'ES[HZ]6', regex: true, ignoreCase: false } });
    assert.deepEqual(messageQueryFromFlags({ messageId: ['7', '8', '7'] }), { messageIds: ['7', '8'] });
    const bad: [object, RegExp, string][] = [
      [{ grep: '(a' }, /^the regular expression \/\(a\/ is not valid: missing closing \)/, '--grep'],
      [{ grep: '' }, /^--grep needs a regular expression/, '--grep'],
      [{ messageId: [''] }, /^--message-id needs a messageId$/, '--message-id'],
    ];
    for (const [flags, message, flag] of bad) {
      assert.throws(
        () => messageQueryFromFlags(flags),
        (e: unknown) => e instanceof InputError && message.test(e.message) && e.fix.flag === flag,
        JSON.stringify(flags),
      );
    }
  });
});
