/**
 * The entries of blocks laid out by avroFixedLayout.ts, made exactly as the avsc path makes them
 * (avroArchive.ts): whole records (RecordEntry) for whoever reads a capture's records, or, for a
 * replay that says what it sequences by (`AvroScan`), scanned entries that carry only what the
 * sequencer needs — key, number, times, messageId and a hash of the content taken from the
 * bytes — and decode their record again only when someone asks for it (an export).
 */
import { PubsubMessage, ReceivedMessage, RecordEntry, type CaptureEntry } from './captureRecord';
import { contentHashAfterData, SEED } from './contentHash';
import { microsToRfc3339 } from './bigQueryRows';
import { BlockLayout, FixedLayout, fnvBase64, layOutBlock, readAttributes, utf8 } from './avroFixedLayout';
import { InvalidCause, newRecordFields, readFields } from './recordFields';
import { ScanKind, ScannedEntry } from './scannedEntry';
import { readsJson, SequencingOptions } from '../sequencer/sequencingOptions';
import { SerialSpace } from '../sequencer/serial';

/** What a replay sequences by, for reading an archive's records straight into scanned entries. */
export interface AvroScan {
  readonly options: SequencingOptions;
  /** Keep each record's bytes, so that its record can be decoded again (an export, a listener that reads records). */
  readonly keep: boolean;
}

const KINDS: Record<Exclude<InvalidCause, 'record'>, ScanKind> = {
  key: ScanKind.Key,
  seq: ScanKind.Seq,
  width: ScanKind.Width,
  mdp3: ScanKind.Mdp3,
  json: ScanKind.Json,
};

/** A scanned entry whose record is decoded again from its own bytes when asked for. */
class AvroScannedEntry extends ScannedEntry {
  private decoded: ReceivedMessage | undefined | null = null;

  constructor(
    file: number,
    line: number,
    time: number,
    kind: ScanKind,
    key: string,
    seq: number,
    messageId: string,
    hash: number,
    sent: number,
    reason: string | undefined,
    wideSource: string | undefined,
    private readonly source: Buffer | undefined,
    private readonly reader: FixedLayoutEntries,
  ) {
    const valid = kind === ScanKind.Valid;
    super(file, line, -1, 0, time, kind, key, seq, messageId, hash, sent, valid ? time : NaN, NaN, undefined, reason, wideSource, undefined);
  }

  override get record(): ReceivedMessage | undefined {
    if (this.decoded === null) this.decoded = this.source === undefined ? undefined : this.reader.recordOf(this.source, this.line);
    return this.decoded;
  }
}

/** Makes the entries of one file's laid-out blocks. */
export class FixedLayoutEntries {
  private readonly blockLayout = new BlockLayout();
  private readonly one = new BlockLayout();
  private readonly space: SerialSpace | undefined;
  private readonly fields = newRecordFields();
  /** Whether readFields needs the whole record (the payload): else a reused message of id, key and attributes. */
  private readonly whole: boolean;
  private readonly message: PubsubMessage = { messageId: '', orderingKey: undefined, attributes: undefined };
  private readonly rm: ReceivedMessage = { message: this.message };
  /** Blocks read by this path, and those left to avsc. */
  fastBlocks = 0;
  avscBlocks = 0;

  constructor(
    private readonly layout: FixedLayout,
    private readonly file: number,
    private readonly label: string,
    private readonly untimedClock: number,
    private readonly scan: AvroScan | undefined,
  ) {
    const o = scan?.options;
    this.space = o && new SerialSpace(o.seqBits);
    this.whole = o !== undefined && (readsJson(o) || o.seq.kind === 'mdp3' || o.sendingTimeMdp3 === true);
  }

  /**
   * Appends the entries of the block `data` (its `count` records numbered from `firstLine`) to
   * `out`; false, appending nothing, when the block is not one this path reads (avsc reads it).
   */
  block(data: Buffer, count: number, firstLine: number, out: CaptureEntry[]): boolean {
    const l = this.blockLayout;
    if (!layOutBlock(this.layout, data, count, l)) {
      this.avscBlocks++;
      return false;
    }
    this.fastBlocks++;
    for (let i = 0; i < count; i++) out.push(this.scan === undefined ? this.recordEntry(data, l, i, firstLine + i) : this.scanned(data, l, i, firstLine + i));
    return true;
  }

  /** The record of one record's own bytes (laid out before, so it lays out again). */
  recordOf(source: Buffer, line: number): ReceivedMessage {
    if (!layOutBlock(this.layout, source, 1, this.one)) throw new RangeError(`Avro record ${line} read once but not again`);
    return this.record(source, this.one, 0, line);
  }

  private time(l: BlockLayout, i: number): number {
    return this.layout === 'data-only' ? this.untimedClock : l.micros[i] / 1000;
  }

  /** As avroArchive's avsc path and rowToRecord make it. */
  private record(b: Buffer, l: BlockLayout, i: number, line: number): ReceivedMessage {
    const data = b.toString('base64', l.dataStart[i], l.dataEnd[i]);
    if (this.layout === 'data-only') return { message: { messageId: `${this.label}#${line}`, data } };
    const message: PubsubMessage = { messageId: utf8(b, l.idStart[i], l.idEnd[i]), publishTime: microsToRfc3339(l.micros[i]) };
    const attributes = readAttributes(b, l.attrStart[i]);
    const key = attributes.ordering_key ?? attributes.orderingKey;
    if (key !== undefined && key !== '') message.orderingKey = key;
    message.attributes = attributes;
    message.data = data;
    return { message };
  }

  private recordEntry(b: Buffer, l: BlockLayout, i: number, line: number): RecordEntry {
    return new RecordEntry(this.file, line, -1, 0, this.time(l, i), this.record(b, l, i, line));
  }

  private scanned(b: Buffer, l: BlockLayout, i: number, line: number): AvroScannedEntry {
    const scan = this.scan as AvroScan;
    let rm = this.rm;
    let id: string;
    let attributes: Record<string, string> | undefined;
    let orderingKey: string | undefined;
    if (this.whole) {
      rm = this.record(b, l, i, line);
      id = rm.message.messageId;
      attributes = rm.message.attributes;
      orderingKey = rm.message.orderingKey;
    } else {
      const m = this.message;
      if (this.layout === 'data-only') id = `${this.label}#${line}`;
      else {
        id = utf8(b, l.idStart[i], l.idEnd[i]);
        attributes = readAttributes(b, l.attrStart[i]);
        const key = attributes.ordering_key ?? attributes.orderingKey;
        if (key !== '') orderingKey = key;
      }
      m.messageId = id;
      m.orderingKey = orderingKey;
      m.attributes = attributes;
    }
    const time = this.time(l, i);
    const source = scan.keep ? Buffer.from(b.subarray(l.recordStart[i], l.recordStart[i + 1])) : undefined;
    const f = this.fields;
    if (!readFields(rm, scan.options, this.space as SerialSpace, f)) {
      const kind = KINDS[f.cause as Exclude<InvalidCause, 'record'>];
      return new AvroScannedEntry(this.file, line, time, kind, '', f.seq, id, 0, NaN, f.reason, f.wideSource, source, this);
    }
    const hash = contentHashAfterData(fnvBase64(SEED, b, l.dataStart[i], l.dataEnd[i]), orderingKey, attributes);
    return new AvroScannedEntry(this.file, line, time, ScanKind.Valid, f.key, f.seq, id, hash, f.sent, undefined, undefined, source, this);
  }
}
