/**
 * How long messages took, as percentiles: held by the sequencer (arrival → release), and along
 * the way the records' own times tell — the sender's time (SendingTime, when the options name
 * it) → publishTime → receivedAt. A set per key and measure, made when the measure first has a
 * value; the run's sets are merged from the keys' when the summary is made.
 */
import { KeyedDurations } from '../util/durationStats';
import { TIME_MEASURES, TimePercentiles } from './timePercentiles';

/** The times of each key's messages (keys numbered 0, 1, 2… as the sequencer numbers them). */
export class KeyTimes {
  private hold: KeyedDurations | undefined;
  private sendToPublish: KeyedDurations | undefined;
  private publishToReceive: KeyedDurations | undefined;
  private sendToReceive: KeyedDurations | undefined;

  /**
   * One released message of a key: its hold (ms; NaN when the key's start window released it,
   * which is not counted) and its times (ms since the epoch; NaN = absent).
   */
  record(key: number, holdMs: number, sent: number, published: number, received: number): void {
    // Written out, not looped over the measures: this runs once a message.
    if (holdMs === holdMs) (this.hold ??= new KeyedDurations()).record(key, holdMs);
    if (sent === sent) {
      if (published === published) (this.sendToPublish ??= new KeyedDurations()).record(key, published - sent);
      if (received === received) (this.sendToReceive ??= new KeyedDurations()).record(key, received - sent);
    }
    if (published === published && received === received) (this.publishToReceive ??= new KeyedDurations()).record(key, received - published);
  }

  /** One key's percentiles. */
  percentiles(key: number): TimePercentiles {
    const t: TimePercentiles = {};
    for (const m of TIME_MEASURES) {
      const p = this[m]?.percentiles(key);
      if (p) t[m] = p;
    }
    return t;
  }

  /** The percentiles over all keys. */
  total(): TimePercentiles {
    const t: TimePercentiles = {};
    for (const m of TIME_MEASURES) {
      const p = this[m]?.total();
      if (p) t[m] = p;
    }
    return t;
  }

  /** Heap bytes the per-key arrays and histograms take, as they estimate it. */
  bytes(): number {
    let n = 0;
    for (const m of TIME_MEASURES) n += this[m]?.bytes() ?? 0;
    return n;
  }
}
