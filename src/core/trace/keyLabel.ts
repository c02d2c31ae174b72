/**
 * How a key is shown to people. The empty key — messages without an ordering key (`--key
 * orderingKey`), or every message with `--key none` — would be a blank row, lane or column: it
 * reads "(no key)" in the tree, the timeline, its pickers and the CLI's summary alike.
 */
export const NO_KEY_LABEL = '(no key)';

export function keyLabel(key: string): string {
  return key === '' ? NO_KEY_LABEL : key;
}
