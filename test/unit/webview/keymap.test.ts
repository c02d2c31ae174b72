import assert from 'node:assert/strict';
import { keyAction, KeyPress, REPLAY_SHORTCUTS, VIEW_SHORTCUTS } from '../../../src/webview/keymap';

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({ key, shiftKey: false, ctrlKey: false, altKey: false, metaKey: false, ...mods });

describe('webview keymap (keys on the timeline canvas)', () => {
  it('arrows and Home / End drive the replay; with Shift they pan', () => {
    assert.deepEqual(keyAction(press('ArrowRight'), true), { replay: 'stepForward' });
    assert.deepEqual(keyAction(press('ArrowLeft'), true), { replay: 'stepBack' });
    assert.deepEqual(keyAction(press('Home'), true), { replay: 'toStart' });
    assert.deepEqual(keyAction(press('End'), true), { replay: 'toEnd' });
    assert.deepEqual(keyAction(press('ArrowRight', { shiftKey: true }), true), { view: 'panForward' });
    assert.deepEqual(keyAction(press('Home', { shiftKey: true }), true), { view: 'panToStart' });
    assert.deepEqual(keyAction(press(' '), true), { replay: 'playPause' });
    assert.deepEqual(
      ['g', 'd', 'l', 'G'].map((k) => keyAction(press(k), true)),
      [{ replay: 'nextGap' }, { replay: 'nextDuplicate' }, { replay: 'nextLate' }, { replay: 'nextGap' }],
    );
    assert.deepEqual(
      ['o', 'O'].map((k) => keyAction(press(k), true)),
      [{ replay: 'nextReordered' }, { replay: 'nextReordered' }],
    );
    assert.equal(keyAction(press('o'), false), undefined, 'no replay in a standalone page');
  });

  it('has no replay keys without a replay (a standalone export): a plain arrow does nothing there', () => {
    for (const k of ['ArrowRight', 'ArrowLeft', 'Home', 'End', ' ', 'g', 'd', 'l']) assert.equal(keyAction(press(k), false), undefined, k);
    assert.deepEqual(keyAction(press('ArrowRight', { shiftKey: true }), false), { view: 'panForward' });
    assert.deepEqual(keyAction(press('?', { shiftKey: true }), false), { view: 'help' });
  });

  it('leaves Ctrl, Alt and Meta combinations to the browser and the workbench (Ctrl+0 fits all)', () => {
    for (const mods of [{ ctrlKey: true }, { altKey: true }, { metaKey: true }]) {
      assert.equal(keyAction(press('g', mods), true), undefined);
      assert.equal(keyAction(press('ArrowRight', mods), true), undefined);
    }
    assert.deepEqual(keyAction(press('0', { ctrlKey: true }), true), { view: 'fitAll' });
  });

  it('gives each key one action, and lists every key it handles', () => {
    const specs = [...REPLAY_SHORTCUTS, ...VIEW_SHORTCUTS].flatMap((s) => s.keys.map(([spec]) => spec));
    assert.deepEqual(
      specs.filter((s, i) => specs.indexOf(s) !== i),
      [],
      'a key bound twice',
    );
    for (const s of [...REPLAY_SHORTCUTS, ...VIEW_SHORTCUTS]) assert.ok(s.label && s.does, JSON.stringify(s));
  });
});
