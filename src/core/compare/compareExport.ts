/**
 * A comparison's rows to a file (or stdout): JSON Lines, or CSV when the name ends in .csv.
 * Written through an OutputFile, so a failed run leaves what was at the target before; rows are
 * gathered per batch and written at the output's pace.
 */
import { stringify } from 'csv-stringify/sync';
import { Writable } from 'node:stream';
import { once } from 'node:events';
import { neutralise } from '../export/csvFormatter';
import { OutputFile, writeError } from '../export/outputFile';
import { COMPARE_ROW_COLUMNS, CompareRow } from './compareRow';
import { CompareRowSink } from './compareRun';

export type CompareExportFormat = 'jsonl' | 'csv';

export function compareFormatForPath(path: string): CompareExportFormat {
  return /\.csv$/i.test(path) ? 'csv' : 'jsonl';
}

const CSV_OPTIONS = { cast: { boolean: (v: boolean) => String(v) } };

function csvRow(r: CompareRow): (string | number | boolean | undefined)[] {
  return COMPARE_ROW_COLUMNS.map((c) => {
    const v = r[c];
    if (v === undefined || v === null) return undefined;
    return typeof v === 'string' ? neutralise(v) : v;
  });
}

export class CompareExport implements CompareRowSink {
  private pending: CompareRow[] = [];
  /** Rows written. */
  rows = 0;

  private constructor(
    private readonly out: Writable,
    private readonly file: OutputFile | undefined,
    private readonly format: CompareExportFormat,
  ) {}

  /** `target` "-" writes to `stdout`. */
  static async open(target: string, stdout: Writable): Promise<CompareExport> {
    const format = compareFormatForPath(target);
    const file = target === '-' ? undefined : await OutputFile.open(target, 'utf8');
    const e = new CompareExport(file?.stream ?? stdout, file, format);
    if (format === 'csv') await e.write(stringify([[...COMPARE_ROW_COLUMNS]], CSV_OPTIONS));
    return e;
  }

  add(row: CompareRow): void {
    this.pending.push(row);
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const rows = this.pending;
    this.pending = [];
    this.rows += rows.length;
    const text = this.format === 'csv' ? stringify(rows.map(csvRow), CSV_OPTIONS) : rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
    await this.write(text);
  }

  /** Ends the output and puts the file in place. */
  async close(): Promise<void> {
    await this.flush();
    if (this.file === undefined) return;
    const s = this.file.stream;
    s.end();
    try {
      await once(s, 'finish');
    } catch (e) {
      await this.file.discard();
      throw writeError(this.file.target, e, this.file.left);
    }
    await this.file.commit();
  }

  /** Drops what was written: the target stays as it was. */
  async discard(): Promise<void> {
    await this.file?.discard();
  }

  private async write(text: string): Promise<void> {
    const out = this.out;
    try {
      if (!out.write(text)) await Promise.race([once(out, 'drain'), once(out, 'error').then(([e]) => Promise.reject(e as Error))]);
    } catch (e) {
      throw writeError(this.file?.target ?? 'stdout', e, this.file?.left);
    }
  }
}
