/**
 * A comparison's ranges on a merged lane (Kind.onlyA / onlyB / lostBoth): a ribbon along the
 * lane's top edge from the range's first number to its last, in the range's colour, with its
 * glyph in a tag at its start — A (only A had them), B (only B had them), × (both lost them) —
 * so the three read apart without colour too.
 */
import { isCompareKind, Kind } from '../shared/timelineModel';
import type { EventView, MarkList } from '../shared/timelineModel';
import { count } from './format';

/** The theme colours a ribbon uses (see theme.ts; a lane layer passes its Theme). */
interface RibbonTheme {
  onlyA: string;
  onlyB: string;
  gap: string;
  background: string;
  focus: string;
  font: string;
}

/** What painting ribbons needs of a 2D canvas context (kept DOM-free so that plain Node tests load this module). */
interface Painter {
  font: string;
  textAlign: string;
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  save(): void;
  restore(): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  strokeRect(x: number, y: number, w: number, h: number): void;
  fillText(text: string, x: number, y: number): void;
}

/** The names the stats, the test hook and the legend use. */
export type ComparedMark = 'onlyA' | 'onlyB' | 'lostBoth';

/** A ribbon's mark name, colour and glyph, by kind. */
export function comparedStyle(kind: number, th: Pick<RibbonTheme, 'onlyA' | 'onlyB' | 'gap'>): { mark: ComparedMark; color: string; glyph: string } {
  if (kind === Kind.onlyA) return { mark: 'onlyA', color: th.onlyA, glyph: 'A' };
  if (kind === Kind.onlyB) return { mark: 'onlyB', color: th.onlyB, glyph: 'B' };
  return { mark: 'lostBoth', color: th.gap, glyph: '×' };
}

/** A ribbon to draw: its extent in layer px (at least MIN_W wide) and what it is. */
export interface Ribbon {
  index: number;
  x0: number;
  x1: number;
}

/** The narrowest ribbon drawn (a range of one number is a point in time). */
export const MIN_W = 4;
/** A glyph's tag, px. */
export const TAG = 10;

/**
 * The ribbons of a lane's findings within [left, right] px, given each time's x: one a range,
 * skipping one that starts under the previous one's tag (unless selected), so tags never overlap.
 */
export function ribbons(fl: MarkList, x: (t: number) => number, left: number, right: number, selectedId?: number): Ribbon[] {
  const out: Ribbon[] = [];
  let tagEnd = -Infinity;
  for (let i = 0; i < fl.id.length; i++) {
    if (!isCompareKind(fl.kind[i])) continue;
    let x0 = x(fl.t0[i]);
    let x1 = x(fl.t1[i]);
    if (x1 < left || x0 > right) continue;
    if (x1 - x0 < MIN_W) {
      const c = (x0 + x1) / 2;
      x0 = c - MIN_W / 2;
      x1 = c + MIN_W / 2;
    }
    if (x0 < tagEnd && x1 <= tagEnd && fl.id[i] !== selectedId) continue;
    tagEnd = Math.max(tagEnd, x0 + TAG);
    out.push({ index: i, x0, x1 });
  }
  return out;
}

/** Paints the ribbons (from `ribbons`) of lane findings `fl` along the top of the lane at `y`; the selected one outlined. */
export function paintRibbons(ctx: Painter, th: RibbonTheme, fl: MarkList, rs: readonly Ribbon[], y: number, selectedId: number | undefined): void {
  ctx.save();
  ctx.font = `bold 9px ${th.font.replace(/^\S+\s/, '')}`;
  ctx.textAlign = 'center';
  for (const r of rs) {
    const { color, glyph } = comparedStyle(fl.kind[r.index], th);
    ctx.fillStyle = color;
    ctx.fillRect(r.x0, y + 1, r.x1 - r.x0, 4);
    ctx.fillRect(r.x0, y + 1, TAG, TAG);
    ctx.fillStyle = th.background;
    ctx.fillText(glyph, r.x0 + TAG / 2, y + 1 + TAG / 2 + 0.5);
    if (fl.id[r.index] === selectedId) {
      ctx.strokeStyle = th.focus;
      ctx.lineWidth = 2;
      ctx.strokeRect(r.x0 - 1, y, r.x1 - r.x0 + 2, TAG + 2);
    }
  }
  ctx.restore();
}

/** A range's numbers: "#3100100–3100103, 4 numbers" (raw: across a wrap `from` is above `to`). */
function numbers(e: EventView): string {
  const n = e.count ?? NaN;
  const range = e.seq === e.seqTo ? `#${e.seq}` : `#${e.seq}–${e.seqTo}`;
  return `${range}, ${count(n)} ${n === 1 ? 'number' : 'numbers'}`;
}

/** What a comparison's range is, in words, naming the sides: "only in A (a.jsonl): #3100100–3100103, 4 numbers". */
export function comparedWords(e: EventView): { title: string; text: string; meaning: string } {
  const [a, b] = e.sides ?? ['A', 'B'];
  switch (e.kind) {
    case 'onlyA':
      return { title: `Only in ${a}`, text: `only in ${a}: ${numbers(e)}`, meaning: `${b} missed them` };
    case 'onlyB':
      return { title: `Only in ${b}`, text: `only in ${b}: ${numbers(e)}`, meaning: `${a} missed them` };
    default:
      return { title: 'Lost in both', text: `lost in both: ${numbers(e)}`, meaning: `neither ${a} nor ${b} had them` };
  }
}
