import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { resolveOptions } from '../../../src/core/sequencer/sequencingOptions';
import { panelRestoreFrom, PanelRestore } from '../../../src/shared/panelRestore';

describe('a timeline panel restored after a reload (panelRestoreFrom)', () => {
  const cme = resolveOptions({ preset: 'cme' });
  const plain = resolveOptions({ key: 'attribute:Channel', gapTimeout: '250ms', capacity: 5 });
  const mdp3 = resolveOptions({ key: 'attribute:Channel', seq: 'mdp3', time: 'mdp3', seqBits: 32 });

  it('gives back what the panel saved, through JSON as the webview state carries it', () => {
    const saved: PanelRestore[] = [
      { kind: 'capture', paths: ['/data/a.jsonl', '/data/b.jsonl.gz'], options: cme, position: 41 },
      { kind: 'capture', paths: ['/data/a.jsonl'], options: plain },
      { kind: 'capture', paths: ['/data/mdp3.jsonl'], options: mdp3, position: 0 },
      { kind: 'live', title: 'tap on orders', recording: '/rec/orders-2025.jsonl', options: cme },
      { kind: 'capture', paths: ['/data/no-resets.jsonl'], options: resolveOptions({ preset: 'cme', resets: 'off' }) },
      { kind: 'capture', paths: ['/data/orders.jsonl'], options: resolveOptions({}) },
    ];
    for (const restore of saved) {
      const state = JSON.parse(JSON.stringify({ sessionId: 's1', t0: 1, t1: 2, scrollY: 0, restore })) as unknown;
      assert.deepEqual(panelRestoreFrom(state), restore);
    }
  });

  it('reads a state without one (a panel that never showed a session) as nothing to restore', () => {
    for (const state of [undefined, null, 0, 'x', [], {}, { sessionId: 's1', t0: 1, t1: 2 }]) assert.equal(panelRestoreFrom(state), undefined);
  });

  it('refuses options that do not sequence (as the settings would) and malformed entries', () => {
    const bad: unknown[] = [
      { kind: 'capture', paths: ['/a'], options: { ...cme, seqBits: 12 } },
      { kind: 'capture', paths: ['/a'], options: { ...cme, key: { kind: 'attribute' } } },
      { kind: 'capture', paths: ['/a'], options: { ...cme, key: { kind: 'whatever' } } },
      { kind: 'capture', paths: ['/a'], options: { ...cme, capacity: -1 } },
      { kind: 'capture', paths: [], options: cme },
      { kind: 'capture', paths: ['/a', 3], options: cme },
      { kind: 'capture', paths: '/a', options: cme },
      { kind: 'live', title: 'x', options: cme },
      { kind: 'other', paths: ['/a'], options: cme },
      { kind: 'capture', paths: ['/a'] },
    ];
    for (const restore of bad) assert.equal(panelRestoreFrom({ restore }), undefined, JSON.stringify(restore));
  });

  it('drops a replay position that is not one, and keeps the rest', () => {
    for (const position of [-1, 1.5, '3', null]) {
      assert.deepEqual(panelRestoreFrom({ restore: { kind: 'capture', paths: ['/a'], options: plain, position } }), {
        kind: 'capture',
        paths: ['/a'],
        options: plain,
      });
    }
  });

  it('never throws, whatever the state holds', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (restore, other) => {
        panelRestoreFrom({ restore, other });
        panelRestoreFrom(restore);
      }),
    );
  });
});
