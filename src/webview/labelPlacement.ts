/**
 * Where text labels go so that none overlaps another: gap labels in a lane (bands of gaps that
 * open close together overlap, and so would their labels), an open gap's "waiting for …" label,
 * the axis's tick labels. Pure (no DOM): the caller measures the text (canvas measureText) and
 * draws what this returns; unit-tested in plain Node.
 */

export interface LabelRequest {
  /** Where the label is anchored, CSS px: its centre (`align: 'center'`) or its left edge. */
  readonly x: number;
  /** Its measured width, CSS px. */
  readonly w: number;
  /** Placed before the others whatever its position (the selected finding's label). */
  readonly keep?: boolean;
}

export interface PlacedLabel<T extends LabelRequest> {
  readonly label: T;
  /** Left edge, CSS px. */
  readonly left: number;
  /** 0 for the first row; a later row is drawn below (or above) the first. */
  readonly row: number;
}

export interface PlacementOptions {
  /** How many rows labels may stack into (1: a label that does not fit is skipped). */
  readonly rows?: number;
  /** Space kept between two labels in a row, CSS px. */
  readonly pad?: number;
  readonly align?: 'center' | 'left';
  /** Labels are kept inside [minX, maxX] (shifted in when they stick out); one wider is skipped. */
  readonly minX?: number;
  readonly maxX?: number;
}

/**
 * Places labels left to right, each in the first row where it clears the label before it by
 * `pad`; one that fits in no row is left out (the mark it names is still drawn and has its
 * tooltip). `keep` labels are placed first, so a selected finding's label always shows.
 */
export function placeLabels<T extends LabelRequest>(labels: readonly T[], options: PlacementOptions = {}): PlacedLabel<T>[] {
  const rows = Math.max(1, Math.floor(options.rows ?? 1));
  const pad = options.pad ?? 6;
  const minX = options.minX ?? -Infinity;
  const maxX = options.maxX ?? Infinity;
  const boxes = labels
    .map((label) => {
      let left = options.align === 'left' ? label.x : label.x - label.w / 2;
      if (left + label.w > maxX) left = maxX - label.w;
      if (left < minX) left = minX;
      return { label, left, right: left + label.w };
    })
    .filter((b) => b.right <= maxX + 0.5 && b.left >= minX - 0.5 && b.label.w > 0);
  // Taken per row: [left, right) intervals, for the kept labels placed out of order.
  const taken: [number, number][][] = Array.from({ length: rows }, () => []);
  const free = (row: number, left: number, right: number) => taken[row].every(([l, r]) => right + pad <= l || left >= r + pad);
  const placed: PlacedLabel<T>[] = [];
  const place = (b: (typeof boxes)[number]) => {
    for (let row = 0; row < rows; row++) {
      if (!free(row, b.left, b.right)) continue;
      taken[row].push([b.left, b.right]);
      placed.push({ label: b.label, left: b.left, row });
      return;
    }
  };
  for (const b of boxes) if (b.label.keep) place(b);
  for (const b of boxes.filter((x) => !x.label.keep).sort((a, c) => a.left - c.left)) place(b);
  return placed.sort((a, c) => a.row - c.row || a.left - c.left);
}
