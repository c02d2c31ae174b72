/**
 * The legend: one entry per kind of mark, with a swatch drawn by CSS in the same theme colours
 * the canvas uses (media/timeline.css), so the two always agree.
 */
import { el } from './dom';

const ENTRIES: [cls: string, label: string, title: string][] = [
  ['message', 'message', 'Released in order (a tick at release time)'],
  ['density', 'messages (dense)', 'Too many to draw one by one: messages per pixel column'],
  ['hold', 'held', 'Held out of order: a line from arrival to release'],
  ['gap', 'gap', 'Missing numbers: from when the gap opened to when it was declared lost'],
  ['redelivery', 'redelivery', 'Duplicate: the same Pub/Sub message (same messageId) delivered again'],
  ['republish', 'republish', 'Duplicate: the same number published again under a new messageId'],
  ['conflict', 'conflict', "Duplicate: the first copy's messageId with other data, attributes or ordering key"],
  ['late', 'late', 'Arrived after its gap was declared lost'],
  ['reordered', 'reordered', 'Arrived after a message of its key published later (judged by publish order)'],
  ['reset', 'reset', "A sequence reset: the key's numbers started again (a publisher restart, a new session)"],
  ['invalid', 'invalid', 'A record that could not be sequenced (top lane)'],
];

/** A comparison's marks on its merged lanes, and what its duplicates are there. */
const COMPARED_ENTRIES: [cls: string, label: string, title: string][] = [
  ['onlyA', 'only A', 'Comparison, merged lane: numbers only side A had (B missed them), from the first to the last to arrive'],
  ['onlyB', 'only B', 'Comparison, merged lane: numbers only side B had (A missed them)'],
  ['lostBoth', 'lost in both', 'Comparison, merged lane: numbers neither side had (over the gap they left)'],
  [
    'republish',
    "duplicates: a side's own",
    "Comparison, merged lane: a second copy from the same side, or a copy whose content differs from the first. The other side's copy of a number both had is expected (the first copy wins) and not drawn",
  ],
];

/**
 * @param keys A reminder of the keys, shown last (the `?` help has them all).
 * @param comparison The session compares two captures: its marks are listed too.
 */
export function legend(withCursor: boolean, keys?: string, comparison = false): HTMLElement {
  const items = [...ENTRIES, ...(comparison ? COMPARED_ENTRIES : [])].map(([cls, label, title]) =>
    el('li', { title }, [el('span', { class: `ss-swatch ss-swatch-${cls}`, attrs: { 'aria-hidden': 'true' } }), label]),
  );
  if (withCursor)
    items.push(
      el('li', { title: 'Replay position' }, [el('span', { class: 'ss-swatch ss-swatch-cursor', attrs: { 'aria-hidden': 'true' } }), 'replay position']),
    );
  if (keys) items.push(el('li', { class: 'ss-legend-keys', title: 'Keyboard shortcuts: press ? on the timeline' }, [keys]));
  return el('ul', { class: 'ss-legend', attrs: { 'aria-label': 'Legend' } }, items);
}
