/**
 * Whether a run read records and sequenced none because every one is a bare JSON payload, not a
 * Pub/Sub message: a Cloud Storage subscription's text archive read as JSON Lines. The CLI and
 * the extension then name the input format that reads it instead of the options.
 */
import { NOT_A_MESSAGE } from '../capture/captureRecord';
import type { ReplaySummary } from './replayEngine';

export function barePayloads(sum: Pick<ReplaySummary, 'received' | 'invalidSamples' | 'tooWide'>): boolean {
  return sum.received === 0 && sum.invalidSamples.length > 0 && !sum.tooWide && sum.invalidSamples.every((s) => s.reason === NOT_A_MESSAGE);
}
