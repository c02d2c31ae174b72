/**
 * The ordered trace as Apache Parquet (hyparquet-writer, pure JS): one row per event, one typed
 * column per event field (parquetColumns.ts). Rows are gathered into columns and written as a
 * row group once enough have come (by count or by payload bytes), so memory holds one row group,
 * never the trace. The bytes of each finished row group are handed back from `format`, the
 * footer (schema, row-group index) from `footer`.
 */
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { TraceEvent } from '../trace/traceEvents';
import { cell, COLUMN_NAMES, ColumnKind, COLUMNS, COLUMNS_OF, parquetSchema } from './parquetColumns';
import type { TraceFormatter } from './traceFormatter';

/** A row group closes at this many rows… */
const GROUP_ROWS = 32_768;
/** …or once its text and payload bytes reach this, whichever comes first. */
const GROUP_BYTES = 64 * 1024 * 1024;

/**
 * Columns of mostly unique values (payloads, ids, times, numbers) are stored plain: trying a
 * dictionary on them costs time and saves nothing. Min/max statistics are kept where a reader
 * prunes row groups by them (key, times, numbers), not for payloads and ids.
 */
const COLUMN_OPTIONS: Record<ColumnKind, { encoding?: 'PLAIN'; statistics?: boolean }> = {
  string: {},
  int64: { encoding: 'PLAIN' },
  double: { encoding: 'PLAIN', statistics: false },
  boolean: { statistics: false },
  clockTime: { encoding: 'PLAIN' },
  recordTime: { encoding: 'PLAIN' },
  attributes: { statistics: false },
  bytes: { encoding: 'PLAIN', statistics: false },
};
/** Ids are unique: no dictionary, no statistics. */
const ID_OPTIONS = { encoding: 'PLAIN', statistics: false } as const;

export class ParquetFormatter implements TraceFormatter<Uint8Array> {
  private readonly out = new ByteWriter(1 << 20);
  private readonly writer = new ParquetWriter({ writer: this.out, schema: parquetSchema(), createdBy: 'SeqScope' });
  /** The row group being gathered, column by column; cells the events lack stay null. */
  private columns: unknown[][];
  private rows = 0;
  private bytes = 0;

  constructor(
    private readonly groupRows = GROUP_ROWS,
    private readonly groupBytes = GROUP_BYTES,
  ) {
    this.columns = this.emptyColumns();
  }

  header(): Uint8Array {
    // The writer wrote the magic number when it was made.
    return this.take();
  }

  format(events: readonly TraceEvent[]): Uint8Array {
    const parts: Uint8Array[] = [];
    for (const ev of events) {
      this.addRow(ev);
      if (this.rows >= this.groupRows || this.bytes >= this.groupBytes) parts.push(this.writeGroup());
    }
    return parts.length === 1 ? parts[0] : Buffer.concat(parts);
  }

  footer(): Uint8Array {
    const last = this.rows > 0 ? this.writeGroup() : new Uint8Array(0);
    void this.writer.finish();
    return Buffer.concat([last, this.take()]);
  }

  private addRow(ev: TraceEvent): void {
    const fields = ev as unknown as Record<string, unknown>;
    const row = this.rows;
    for (const c of COLUMNS_OF[ev.type]) {
      const name = COLUMN_NAMES[c];
      const value = fields[name];
      if (value === undefined) continue;
      if (typeof value === 'string') this.bytes += value.length;
      this.columns[c][row] = cell(COLUMNS[name], value);
    }
    this.rows++;
  }

  private writeGroup(): Uint8Array {
    const rows = this.rows;
    const columnData = COLUMN_NAMES.map((name, c) => ({
      name,
      data: this.columns[c].slice(0, rows) as string[],
      ...(name === 'messageId' || name === 'firstMessageId' ? ID_OPTIONS : COLUMN_OPTIONS[COLUMNS[name]]),
    }));
    // No flush hook on the writer: write() is synchronous here.
    void this.writer.write({ columnData, rowGroupSize: rows });
    for (const column of this.columns) column.fill(null, 0, rows);
    this.rows = 0;
    this.bytes = 0;
    return this.take();
  }

  private emptyColumns(): unknown[][] {
    return COLUMN_NAMES.map(() => new Array<unknown>(this.groupRows).fill(null));
  }

  /** The bytes written since the last call (a copy: the buffer is reused). */
  private take(): Uint8Array {
    const bytes = this.out.getBytes().slice();
    this.out.index = 0;
    return bytes;
  }
}
