/**
 * How a key is shown to people. The empty key — messages without an ordering key (`--key
 * orderingKey`), or every message with `--key none` — would be a blank row, lane or column: it
 * reads "(no key)" in the tree, the timeline, its pickers and the CLI's summary alike.
 */
export const NO_KEY_LABEL = '(no key)';

export function keyLabel(key: string): string {
  return key === '' ? NO_KEY_LABEL : key;
}

/**
 * Characters that change how the text around them shows — C0 and C1 controls (escape sequences,
 * carriage return), line and paragraph separators, and the bidirectional embeddings, overrides,
 * isolates and marks (the "Trojan Source" trick: U+202E turns the rest of a terminal line
 * around).
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** The unsafe characters of `s` written as `\u` escapes (`\u202e`), so a terminal shows them rather than obeys them. */
export function escapeUnsafe(s: string): string {
  return s.replace(UNSAFE, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/** Widest a name is shown in a terminal table, in characters (code points). */
export const TERMINAL_NAME_WIDTH = 40;

/**
 * A key (or any name from the input) for a terminal: unsafe characters escaped, cut to `width`
 * characters with an ellipsis, so one hostile or huge name cannot garble or widen the table.
 * JSON output keeps the exact name.
 */
export function terminalLabel(key: string, width = TERMINAL_NAME_WIDTH): string {
  const chars = Array.from(escapeUnsafe(keyLabel(key)));
  if (chars.length <= width) return chars.join('');
  // Never end on half an escape.
  return (
    chars
      .slice(0, width - 1)
      .join('')
      .replace(/\\(u[0-9a-f]{0,3})?$/, '') + '…'
  );
}

/**
 * A key for a view (tree, timeline, detail pane): a name with anything beyond printable ASCII
 * goes between U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE, so whatever
 * direction characters it holds stay inside it and never turn the text after it around; a
 * plain name is shown as it is (it can hold none, and the isolates would only get in the way of
 * matching and copying it). Views show it as text, never as markup.
 */
export function displayKey(key: string): string {
  const label = keyLabel(key);
  return /^[\x20-\x7e]*$/.test(label) ? label : '\u2068' + label + '\u2069';
}
