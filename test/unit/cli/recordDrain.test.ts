/** `record --drain`'s rule: how long it waits, and when its quiet proves the subscription empty. */
import assert from 'node:assert/strict';
import { drainRule } from '../../../src/cli/recordDrain';

describe('record --drain rule', () => {
  it('waits the ack deadline plus 2 s by default, which a lease SeqScope took cannot outlast: confirmed', () => {
    assert.deepEqual(drainRule(10, undefined, false), { emptyAfterMs: 12_000 });
    assert.deepEqual(drainRule(600, undefined, false), { emptyAfterMs: 602_000 });
    assert.deepEqual(drainRule(0, undefined, false), { emptyAfterMs: 12_000 }, 'an unknown deadline is the 10 s minimum');
  });

  it('a quiet longer than the deadline is confirmed; one not longer says why not', () => {
    assert.deepEqual(drainRule(10, 60_000, false), { emptyAfterMs: 60_000 });
    const short = drainRule(60, 5_000, false);
    assert.equal(short.emptyAfterMs, 5_000);
    assert.match(short.unconfirmed ?? '', /^5s is not longer than the ack deadline \(1m\)/);
    assert.ok(drainRule(10, 10_000, false).unconfirmed, 'equal to the deadline is not longer');
  });

  it("is never confirmed on the emulator, which hands a killed client's leases back over minutes", () => {
    for (const quiet of [undefined, 60_000, 600_000]) {
      const rule = drainRule(10, quiet, true);
      assert.equal(rule.emptyAfterMs, quiet ?? 12_000);
      assert.match(rule.unconfirmed ?? '', /^the emulator hands a killed client's leases back over minutes/);
    }
  });
});
