/**
 * A set of integers kept as sorted, disjoint, non-adjacent ranges: the numbers a comparison has
 * matched on both sides. A feed's numbers match in runs, so the ranges number about the holes
 * between them (what one side missed, what both lost), not the numbers: this is what keeps a
 * comparison's memory bounded by what is unmatched.
 */
export class RangeSet {
  /** Inclusive bounds of range i: los[i]..his[i]; los[i + 1] > his[i] + 1. */
  private readonly los: number[] = [];
  private readonly his: number[] = [];

  /** Ranges held. */
  get ranges(): number {
    return this.los.length;
  }

  has(x: number): boolean {
    const i = this.floor(x);
    return i >= 0 && x <= this.his[i];
  }

  add(x: number): void {
    const { los, his } = this;
    const n = los.length;
    // Most numbers extend the last range (a feed matches in order).
    if (n > 0 && x === his[n - 1] + 1) {
      his[n - 1] = x;
      return;
    }
    if (n === 0 || x > his[n - 1] + 1) {
      los.push(x);
      his.push(x);
      return;
    }
    const i = this.floor(x);
    if (i >= 0 && x <= his[i]) return;
    const joinsLeft = i >= 0 && his[i] + 1 === x;
    const joinsRight = i + 1 < n && los[i + 1] - 1 === x;
    if (joinsLeft && joinsRight) {
      his[i] = his[i + 1];
      los.splice(i + 1, 1);
      his.splice(i + 1, 1);
    } else if (joinsLeft) his[i] = x;
    else if (joinsRight) los[i + 1] = x;
    else {
      los.splice(i + 1, 0, x);
      his.splice(i + 1, 0, x);
    }
  }

  /** The ranges in order, as [from, to] pairs. */
  *entries(): IterableIterator<[number, number]> {
    for (let i = 0; i < this.los.length; i++) yield [this.los[i], this.his[i]];
  }

  /** Index of the last range starting at or below x, or -1. */
  private floor(x: number): number {
    const los = this.los;
    let lo = 0;
    let hi = los.length - 1;
    if (hi >= 0 && los[hi] <= x) return hi;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (los[mid] <= x) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }
}
