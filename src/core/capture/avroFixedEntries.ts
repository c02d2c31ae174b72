/**
 * The entries of blocks laid out by avroFixedLayout.ts, made exactly as the avsc path makes them
 * (avroArchive.ts): whole records (RecordEntry) for whoever reads a capture's records, or, for a
 * replay that says what it sequences by (`AvroScan`), scanned entries that carry only what the
 * sequencer needs — key, number, times, messageId and a hash of the content taken from the
 * bytes — and decode their record again only when someone asks for it (an export).
 */
import { PubsubMessage, ReceivedMessage, RecordEntry, type CaptureEntry } from './captureRecord';
import { contentHashAfterData, FNV_PRIME } from './contentHash';
import { microsToRfc3339 } from './bigQueryRows';
import { ATTRIBUTE_SLOTS, AttributeSpans, BlockLayout, FixedLayout, dataHashBase64, layOutBlock, readAttributes, utf8 } from './avroFixedLayout';
import { InvalidCause, newRecordFields, readFields } from './recordFields';
import { ScanKind, ScannedEntry } from './scannedEntry';
import { digitsValue } from './utcBytes';
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
  /**
   * Key, number and sender's time come from attributes or the ordering key and no whole record is
   * needed: they are read from the map's bytes (`direct`), no record made.
   */
  private readonly spans: AttributeSpans | undefined;
  /** Recent keys by a hash of their bytes, so a key's string is made once, not once a record. */
  private readonly keyCache: (string | undefined)[] = new Array<string | undefined>(64).fill(undefined);
  private directKey = '';
  private directSeq = 0;
  private directSent = NaN;
  private directHash = 0;
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
    this.spans = o && !this.whole && layout === 'with-metadata' ? attributeSpans(o) : undefined;
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
    if (this.spans !== undefined && this.direct(b, l, i)) {
      const source = scan.keep ? Buffer.from(b.subarray(l.recordStart[i], l.recordStart[i + 1])) : undefined;
      const id = utf8(b, l.idStart[i], l.idEnd[i]);
      const time = l.micros[i] / 1000;
      return new AvroScannedEntry(
        this.file,
        line,
        time,
        ScanKind.Valid,
        this.directKey,
        this.directSeq,
        id,
        this.directHash,
        this.directSent,
        undefined,
        undefined,
        source,
        this,
      );
    }
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
    const hash = contentHashAfterData(dataHashBase64(b, l.dataStart[i], l.dataEnd[i]), orderingKey, attributes);
    return new AvroScannedEntry(this.file, line, time, ScanKind.Valid, f.key, f.seq, id, hash, f.sent, undefined, undefined, source, this);
  }

  /**
   * Key, number, sender's time and hash of a valid record, as readFields and contentHash read
   * them, from the attributes map's bytes; false when the record is not one read so with
   * certainty (an attribute missing, a number that does not sequence, a map that declines), and
   * readFields then reads it, reasons and all.
   */
  private direct(b: Buffer, l: BlockLayout, i: number): boolean {
    const spans = this.spans as AttributeSpans;
    if (!spans.read(b, l.attrStart[i])) return false;
    const o = (this.scan as AvroScan).options;
    const { KEY, SEQ, SENT } = ATTRIBUTE_SLOTS;
    let h = Math.imul(dataHashBase64(b, l.dataStart[i], l.dataEnd[i]) ^ 0xff, FNV_PRIME);
    const ok = spans.orderingKeySlot();
    const hasKey = ok >= 0 && spans.e[ok] > spans.s[ok];
    if (hasKey) h = spans.hashValue(h, b, ok);
    this.directHash = Math.imul(h ^ spans.sum, FNV_PRIME);
    if (o.key.kind === 'orderingKey') this.directKey = hasKey ? this.text(b, spans, ok) : '';
    else if (o.key.kind === 'attribute') {
      if (!spans.has(KEY)) return false;
      this.directKey = this.text(b, spans, KEY);
    } else this.directKey = '';
    if (o.seq.kind === 'attribute') {
      const seq = spans.has(SEQ) && !spans.high[SEQ] ? digitsValue(b, spans.s[SEQ], spans.e[SEQ]) : NaN;
      if (seq !== seq || (this.space as SerialSpace).check(seq) !== undefined) return false;
      this.directSeq = seq;
    } else this.directSeq = 0;
    this.directSent = NaN;
    if (o.sendingTimeAttribute !== undefined && spans.has(SENT)) {
      const sent = spans.high[SENT] ? NaN : digitsValue(b, spans.s[SENT], spans.e[SENT]);
      this.directSent = sent === sent ? sent : Number(utf8(b, spans.s[SENT], spans.e[SENT]));
    }
    return true;
  }

  /** Slot k's value as text: ASCII through a cache (keys repeat), else decoded. */
  private text(b: Buffer, spans: AttributeSpans, k: number): string {
    const s = spans.s[k];
    const e = spans.e[k];
    if (spans.high[k]) return utf8(b, s, e);
    const slot = spans.hashValue(0, b, k) & (this.keyCache.length - 1);
    const cached = this.keyCache[slot];
    if (cached !== undefined && sameText(b, s, e, cached)) return cached;
    const t = b.toString('latin1', s, e);
    this.keyCache[slot] = t;
    return t;
  }
}

/** The attributes a replay by `o` reads from the map, or undefined when they are not all plain names (read whole then). */
function attributeSpans(o: SequencingOptions): AttributeSpans | undefined {
  if (o.key.kind === 'json' || (o.seq.kind !== 'attribute' && o.seq.kind !== 'none')) return undefined;
  const names = [o.key.kind === 'attribute' ? o.key.name : undefined, o.seq.kind === 'attribute' ? o.seq.name : undefined, o.sendingTimeAttribute];
  // A name an object inherits (constructor, toString…) reads otherwise from an object than from the map.
  if (names.some((n) => n !== undefined && (!/^[\x20-\x7e]*$/.test(n) || n in Object.prototype))) return undefined;
  return new AttributeSpans(names[0], names[1], names[2]);
}

function sameText(b: Uint8Array, s: number, e: number, t: string): boolean {
  if (t.length !== e - s) return false;
  for (let k = 0; k < t.length; k++) if (t.charCodeAt(k) !== b[s + k]) return false;
  return true;
}
