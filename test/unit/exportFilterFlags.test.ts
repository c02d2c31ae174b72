import assert from 'node:assert/strict';
import { exportFilterFromFlags, FilterFlagError, parseNameList } from '../../src/cli/exportFilterFlags';

describe('replay export filter flags', () => {
  it('turns the flags into the extension’s filter: kinds (plural too), keys, ranges, an attribute', () => {
    assert.equal(exportFilterFromFlags({}), undefined);
    assert.deepEqual(exportFilterFromFlags({ only: 'gaps, late,gap' }), { kinds: ['gap', 'late'] });
    assert.deepEqual(exportFilterFromFlags({ onlyKey: ['310', 'a,b'] }), { keys: ['310', 'a,b'] });
    assert.deepEqual(exportFilterFromFlags({ numbers: '100-200' }), { seqFrom: 100, seqTo: 200 });
    assert.deepEqual(exportFilterFromFlags({ numbers: '7' }), { seqFrom: 7, seqTo: 7 });
    assert.deepEqual(exportFilterFromFlags({ numbers: '65000-' }), { seqFrom: 65000, seqTo: undefined });
    assert.deepEqual(exportFilterFromFlags({ numbers: '-5' }), { seqFrom: undefined, seqTo: 5 });
    assert.deepEqual(exportFilterFromFlags({ where: 'Channel=310' }), { attribute: { name: 'Channel', value: '310' } });
    assert.deepEqual(exportFilterFromFlags({ where: 'note=a=b' }), { attribute: { name: 'note', value: 'a=b' } }, 'the first = splits');
  });

  it('says what is wrong with a bad flag', () => {
    const bad: [object, RegExp][] = [
      [{ only: 'gapz' }, /^--only "gapz" is not a kind of event: use message,gap,duplicate,late,invalid$/],
      [{ only: ' , ' }, /^--only needs at least one of/],
      [{ numbers: '9-3' }, /FROM is above TO/],
      [{ numbers: 'x' }, /is not a range/],
      [{ numbers: '-' }, /is not a range/],
      [{ numbers: '1 2' }, /is not a range/],
      [{ where: '=310' }, /is not name=value/],
      [{ where: 'Channel' }, /is not name=value/],
    ];
    for (const [flags, message] of bad) assert.throws(() => exportFilterFromFlags(flags), (e: unknown) => e instanceof FilterFlagError && message.test(e.message), JSON.stringify(flags));
    assert.deepEqual(parseNameList('gaps,late', ['gap', 'late'] as const, '--fail-on', 'a finding'), ['gap', 'late']);
  });
});
