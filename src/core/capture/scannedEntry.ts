/**
 * An entry the parallel reader hands on (see lineScan.ts): kept apart from the scanning so that
 * the replay engine, which the webview's types reach, needs no Node Buffer.
 */
import { CaptureEntry, ReceivedMessage, toRecord } from './captureRecord';
import { InvalidCause } from './recordFields';

/** What a scanned record is: sequenced (`Valid`), or invalid for one of the causes. */
export const enum ScanKind {
  Valid = 0,
  /** Not a record at all (not JSON, not a ReceivedMessage, no time, too long). */
  Record = 1,
  Key = 2,
  Seq = 3,
  Width = 4,
  Mdp3 = 5,
  Json = 6,
}

const CAUSES: readonly InvalidCause[] = ['record', 'record', 'key', 'seq', 'width', 'mdp3', 'json'];

/** The cause an invalid kind stands for. */
export function causeOf(kind: ScanKind): InvalidCause {
  return CAUSES[kind];
}

/** A Buffer's text, decoded as the single-threaded reader decodes it (same replacement of bad UTF-8). */
function text(bytes: Uint8Array): string {
  return (bytes as unknown as { toString(encoding: 'utf8'): string }).toString('utf8');
}

/**
 * A record as the parallel reader hands it on: what the sequencer needs, read by a scanning
 * thread. The record itself (for exports and filters) is parsed again from its bytes when asked
 * for, if the reader kept them.
 */
export class ScannedEntry implements CaptureEntry {
  private parsed: ReceivedMessage | undefined | null = null;

  constructor(
    readonly file: number,
    readonly line: number,
    readonly offset: number,
    readonly length: number,
    readonly time: number,
    readonly kind: ScanKind,
    readonly key: string,
    readonly seq: number,
    /** The record's messageId, whether or not it can be sequenced ('' for kind Record). */
    readonly messageId: string,
    readonly hash: number,
    readonly sent: number,
    /** publishTime and receivedAt (ms), NaN when absent (see publishedAt, receivedAtMs). */
    readonly published: number,
    readonly received: number,
    /** Why a record of kind Record is not one (as CaptureEntry.invalid). */
    readonly invalid: string | undefined,
    /** Why a record of any other invalid kind cannot be sequenced. */
    readonly reason: string | undefined,
    readonly wideSource: string | undefined,
    /** The record's bytes (a Node Buffer), when kept. */
    private readonly bytes: Uint8Array | undefined,
  ) {}

  /** The record, parsed again from its bytes; undefined when they were not kept (or for kind Record). */
  get record(): ReceivedMessage | undefined {
    if (this.parsed === null) {
      const bytes = this.bytes;
      if (bytes === undefined || this.kind === ScanKind.Record) this.parsed = undefined;
      else {
        // It parsed on the scanning thread, so it parses here.
        const r = toRecord(JSON.parse(text(bytes)));
        this.parsed = typeof r === 'string' ? undefined : r;
      }
    }
    return this.parsed;
  }
}
