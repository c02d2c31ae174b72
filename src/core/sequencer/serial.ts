/**
 * Sequence-number arithmetic for the widths SeqScope supports.
 *
 * 16- and 32-bit numbers wrap (CME's MsgSeqNum is a uInt32), so they are compared with RFC 1982
 * serial arithmetic: of two numbers, the one less than half the space ahead is the later one.
 * Inside the sequencer every number is "unwrapped" to an absolute position on an unbounded line
 * (`abs`), so held sets, ranges and counts are plain integer arithmetic; only the edges convert.
 *
 * 64-bit numbers do not wrap. JavaScript numbers hold integers exactly up to 2^53 − 1, which is
 * the largest 64-bit value SeqScope accepts; larger ones are reported invalid rather than
 * compared inexactly.
 */
export type SeqBits = 16 | 32 | 64;

export const SEQ_BITS: readonly SeqBits[] = [16, 32, 64];

export class SerialSpace {
  /** Number of distinct values (2^bits), or Infinity for the non-wrapping 64-bit space. */
  readonly modulus: number;
  /** Largest accepted raw value. */
  readonly max: number;
  private readonly half: number;

  constructor(readonly bits: SeqBits) {
    this.modulus = bits === 64 ? Infinity : 2 ** bits;
    this.max = bits === 64 ? Number.MAX_SAFE_INTEGER : 2 ** bits - 1;
    this.half = bits === 64 ? Infinity : 2 ** (bits - 1);
  }

  get wraps(): boolean {
    return this.bits !== 64;
  }

  /**
   * Why a raw value cannot be a sequence number of this width, or undefined when it can.
   * Accepts numbers and decimal strings (Pub/Sub attributes are strings).
   */
  check(raw: number): string | undefined {
    if (!Number.isInteger(raw)) return 'is not an integer';
    if (raw < 0) return 'is negative';
    if (raw > this.max) {
      return this.bits === 64
        ? `exceeds 2^53-1, the largest number SeqScope compares exactly`
        : `is out of range for ${this.bits}-bit numbers (max ${this.max})`;
    }
    return undefined;
  }

  /** The absolute position of `raw` nearest to the absolute position `ref` (RFC 1982). */
  unwrap(raw: number, ref: number): number {
    if (this.modulus === Infinity) return raw;
    const m = this.modulus;
    const refLow = ref - Math.floor(ref / m) * m;
    let d = raw - refLow;
    if (d < 0) d += m;
    if (d >= this.half) d -= m;
    return ref + d;
  }

  /** The raw (wire) value of an absolute position. */
  wrap(abs: number): number {
    if (this.modulus === Infinity) return abs;
    const m = this.modulus;
    return abs - Math.floor(abs / m) * m;
  }

  /** RFC 1982 comparison of two raw values: negative when a precedes b, 0 when equal. */
  compare(a: number, b: number): number {
    return this.unwrap(a, b) - b;
  }
}
