import assert from 'node:assert/strict';
import { Sequencer, SequencerSink } from '../../../../src/core/sequencer/sequencer';
import { openStateOf, openStateWords } from '../../../../src/core/sequencer/openState';
import { resolveOptions, sequencingLabel, unseenFindings } from '../../../../src/core/sequencer/sequencingOptions';

const sink: SequencerSink<number> = { message() {}, gap() {}, duplicate() {}, late() {}, reordered() {} };

/** A 64-bit sequenced key with a 10 s gap timeout, the sequencer's clock at 0. */
function tenSecondTimeout(): Sequencer<number> {
  return new Sequencer<number>({ gapTimeoutMs: 10_000, capacity: 1000, seqBits: 64, sequenced: true }, sink);
}

describe('openState (what a live key waits for)', () => {
  it('says the start window counts down, then an open gap waits for its number, then nothing', () => {
    const s = tenSecondTimeout();
    s.advance(1_000);
    s.offer('A', 398, 'a', 0);
    s.offer('A', 399, 'b', 0);
    const k = s.key('A')!;
    const collecting = openStateOf(s, k, 4_000);
    // The window opened with the first arrival (1 s) and lasts the gap timeout.
    assert.deepEqual(collecting, { kind: 'collecting', leftMs: 7_000, held: 2, openedAt: 1_000, windowMs: 10_000 });
    assert.equal(openStateWords(collecting!), 'collecting: 7 s left · 2 held');
    s.advance(11_000); // the start window ends: 398, 399 delivered; 400 expected
    assert.equal(openStateOf(s, k, 11_000), undefined, 'holds nothing: no open state');
    s.advance(12_000);
    s.offer('A', 401, 'c', 0); // #400 missing: the gap opens at 12 s
    s.offer('A', 402, 'd', 0);
    const waiting = openStateOf(s, k, 15_200);
    assert.equal(waiting?.kind, 'waiting');
    assert.equal(openStateWords(waiting!), 'waiting for #400 · 3.2 s of 10 s · 2 held');
    assert.equal(openStateWords(openStateOf(s, k, 40_000)!), 'waiting for #400 · 10 s of 10 s · 2 held', 'never past the timeout');
    s.advance(22_000); // declared lost
    assert.equal(openStateOf(s, k, 22_000), undefined);
  });

  it('a hole in the start window shows from the arrival above it, and is the same wait once the key starts', () => {
    const s = tenSecondTimeout();
    s.advance(1_000);
    s.offer('A', 5, 'a', 0);
    const k = s.key('A')!;
    assert.equal(
      openStateOf(s, k, 2_000)?.kind === 'collecting' && (openStateOf(s, k, 2_000) as { hole?: unknown }).hole,
      undefined,
      'one message: no hole yet',
    );
    s.advance(3_000);
    s.offer('A', 7, 'b', 0); // #6 missing from here
    s.advance(3_500);
    s.offer('A', 8, 'c', 0);
    const early = openStateOf(s, k, 4_000)!;
    assert.deepEqual(early, {
      kind: 'collecting',
      leftMs: 7_000,
      held: 3,
      openedAt: 1_000,
      windowMs: 10_000,
      hole: { expected: 6, waitedMs: 1_000, timeoutMs: 10_000, openedAt: 3_000 },
    });
    assert.equal(openStateWords(early), 'waiting for #6 · 1 s of 10 s · starts in 7 s · 3 held');
    s.advance(11_000); // the window closes: 5 delivered, #6 waited for from 3 s, as shown
    const after = openStateOf(s, k, 11_000)!;
    assert.equal(after.kind, 'waiting');
    assert.equal(openStateWords(after), 'waiting for #6 · 8 s of 10 s · 2 held');
    assert.equal(after.kind === 'waiting' && after.openedAt, 3_000, 'the same wait: it did not start again');
    s.advance(13_000); // declared where the hole said: 10 s after 7 arrived
    assert.equal(openStateOf(s, k, 13_000), undefined);
  });

  it('a start window holding an unbroken run has no hole; numbers that arrive out of order still fill it', () => {
    const s = tenSecondTimeout();
    s.advance(1_000);
    s.offer('A', 12, 'a', 0);
    s.offer('A', 10, 'b', 0);
    const k = s.key('A')!;
    assert.equal(openStateWords(openStateOf(s, k, 2_000)!), 'waiting for #11 · 1 s of 10 s · starts in 9 s · 2 held');
    s.offer('A', 11, 'c', 0);
    assert.equal(openStateWords(openStateOf(s, k, 2_000)!), 'collecting: 9 s left · 3 held', 'the hole filled');
  });

  it('names how a session is sequenced, and what publish or arrival order alone cannot find', () => {
    assert.equal(sequencingLabel(resolveOptions({ preset: 'cme' })), 'MsgSeqNum per Channel (32-bit)');
    assert.equal(sequencingLabel(resolveOptions({})), 'publish order per ordering key');
    assert.equal(sequencingLabel(resolveOptions({ seq: 'none' })), 'arrival order per ordering key');
    assert.equal(sequencingLabel(resolveOptions({ key: 'none', seq: 'attribute:n' })), 'n in one stream');
    assert.equal(sequencingLabel(resolveOptions({ preset: 'cme-json' })), 'header.sequenceNumber in one stream');
    assert.equal(sequencingLabel(resolveOptions({ key: 'json:payload[0].instrument.symbol' })), 'arrival order per payload[0].instrument.symbol');
    assert.match(unseenFindings(resolveOptions({}))!, /^publish order: gaps cannot be seen.*reordered/);
    assert.match(unseenFindings(resolveOptions({ seq: 'none' }))!, /^arrival order only: gaps cannot be seen/);
    assert.equal(unseenFindings(resolveOptions({ preset: 'cme' })), undefined);
  });
});
