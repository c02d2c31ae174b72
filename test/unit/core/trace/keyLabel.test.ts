import assert from 'node:assert/strict';
import { displayKey, escapeUnsafe, NO_KEY_LABEL, terminalLabel, TERMINAL_NAME_WIDTH } from '../../../../src/core/trace/keyLabel';

describe('key labels for terminals and views', () => {
  it('escapes controls, bidi overrides and isolates, line separators; keeps other text', () => {
    assert.equal(escapeUnsafe('a\u202eb\u2066c\u2069d\u200fe\u061cf'), 'a\\u202eb\\u2066c\\u2069d\\u200fe\\u061cf');
    assert.equal(escapeUnsafe('\u001b[31mred\r\n\t\u0000\u007f\u0085\u2028'), '\\u001b[31mred\\u000d\\u000a\\u0009\\u0000\\u007f\\u0085\\u2028');
    assert.equal(escapeUnsafe('Käse 東京 עברית 🐟'), 'Käse 東京 עברית 🐟');
  });

  it('cuts a long name to the width with an ellipsis, never in the middle of an escape or a surrogate pair', () => {
    assert.equal(terminalLabel('x'.repeat(2000)), 'x'.repeat(TERMINAL_NAME_WIDTH - 1) + '…');
    assert.equal(Array.from(terminalLabel('🐟'.repeat(100))).length, TERMINAL_NAME_WIDTH);
    assert.equal(terminalLabel('short'), 'short');
    assert.equal(terminalLabel(''), NO_KEY_LABEL);
    for (let pad = 0; pad < 8; pad++) {
      const cut = terminalLabel('y'.repeat(pad) + '\u202e'.repeat(20), 12);
      assert.match(cut, /^y*(\\u202e)*…$/, cut);
    }
  });

  it('isolates a name for views so its direction characters cannot leak past it', () => {
    assert.equal(displayKey('\u202eabc'), '\u2068\u202eabc\u2069');
    assert.equal(displayKey('\u05d0bc'), '\u2068\u05d0bc\u2069', 'a right-to-left name');
    assert.equal(displayKey('acct-1'), 'acct-1', 'a plain name as it is');
    assert.equal(displayKey(''), NO_KEY_LABEL);
  });
});
