/**
 * Drives a Sequencer with (time, key, seq, messageId) arrivals and records what it emits as
 * plain objects, so tests can compare whole outputs.
 */
import { Sequencer, SequencerConfig, SequencerSink } from '../../src/core/sequencer/sequencer';

export type Emitted =
  | { type: 'message'; key: string; seq: number | undefined; id: string; arrivedAt: number; releasedAt: number }
  | { type: 'gap'; key: string; from: number; to: number; count: number; openedAt: number; declaredAt: number; reason: string }
  | { type: 'duplicate'; key: string; seq: number | undefined; id: string; redelivery: boolean; cascade: number | undefined; at: number }
  | { type: 'late'; key: string; seq: number; id: string; lostAt: number; at: number; beforeStart?: true }
  | { type: 'reordered'; key: string; id: string; behindId: string; byMs: number; byPosition: number; at: number }
  | { type: 'reset'; key: string; from: number; to: number; at: number; arrivedAt: number; released: number; lost: number; how: string };

export interface Arrival {
  t: number;
  key?: string;
  seq: number;
  id?: string;
}

export const CONFIG: SequencerConfig = { gapTimeoutMs: 10_000, capacity: 10_000, seqBits: 64, sequenced: true };

export class Harness {
  readonly out: Emitted[] = [];
  seq: Sequencer<string>;
  readonly sink: SequencerSink<string>;

  constructor(config: Partial<SequencerConfig> = {}) {
    this.sink = {
      message: (k, seq, id, arrivedAt, releasedAt) => this.out.push({ type: 'message', key: k.name, seq, id, arrivedAt, releasedAt }),
      gap: (k, g) =>
        this.out.push({ type: 'gap', key: k.name, from: g.from, to: g.to, count: g.count, openedAt: g.openedAt, declaredAt: g.declaredAt, reason: g.reason }),
      duplicate: (k, d) =>
        this.out.push({ type: 'duplicate', key: k.name, seq: d.seq, id: d.messageId, redelivery: d.redelivery, cascade: d.cascade, at: d.at }),
      late: (k, l) =>
        this.out.push({
          type: 'late',
          key: k.name,
          seq: l.seq,
          id: l.messageId,
          lostAt: l.lostAt,
          at: l.at,
          ...(l.beforeStart ? { beforeStart: true as const } : {}),
        }),
      reordered: (k, r) =>
        this.out.push({ type: 'reordered', key: k.name, id: r.messageId, behindId: r.behindId, byMs: r.byMs, byPosition: r.byPosition, at: r.at }),
      reset: (k, r) => this.out.push({ type: 'reset', key: k.name, ...r }),
    };
    this.seq = new Sequencer<string>({ ...CONFIG, ...config }, this.sink);
  }

  /** Continues from another sequencer's state (a clone reporting to this harness's sink). */
  adopt(seq: Sequencer<string>): this {
    this.seq = seq;
    return this;
  }

  /** Offers arrivals in order; a missing id defaults to "<key>/<seq>" (so repeats are redeliveries). */
  feed(arrivals: readonly Arrival[]): this {
    for (const a of arrivals) {
      const key = a.key ?? 'k';
      this.seq.advance(a.t);
      this.seq.offer(key, a.seq, a.id ?? `${key}/${a.seq}`, a.id ?? `${key}/${a.seq}`);
    }
    return this;
  }

  at(t: number): this {
    this.seq.advance(t);
    return this;
  }

  end(): this {
    this.seq.finish();
    return this;
  }

  /** Delivered numbers of a key, in release order. */
  delivered(key = 'k'): (number | undefined)[] {
    return this.out.filter((e) => e.type === 'message' && e.key === key).map((e) => (e as { seq: number | undefined }).seq);
  }

  of<T extends Emitted['type']>(type: T, key?: string): Extract<Emitted, { type: T }>[] {
    return this.out.filter((e) => e.type === type && (key === undefined || e.key === key)) as Extract<Emitted, { type: T }>[];
  }
}

/** Arrivals of consecutive numbers, one per `dt` ms from `t0`. */
export function run(from: number, to: number, t0: number, dt = 1, key = 'k'): Arrival[] {
  const out: Arrival[] = [];
  for (let s = from, t = t0; s <= to; s++, t += dt) out.push({ t, key, seq: s });
  return out;
}
