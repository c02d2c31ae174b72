import { ChromeTraceFormatter } from './chromeTraceFormatter';
import { CsvFormatter } from './csvFormatter';
import { JsonlFormatter } from './jsonlFormatter';
import { ParquetFormatter } from './parquetFormatter';
import { TraceChunk, TraceFormat, TraceFormatter } from './traceFormatter';
import type { KeyOrder } from '../trace/keyOrder';
import type { SchemaSet } from '../schema/schemaSet';

export * from './traceFormatter';

/** What the export adds to the events (JSONL): the decoded MDP 3.0 packet of each message, the record its schema decodes. */
export interface ExportOptions {
  readonly mdp3?: boolean;
  /** The default and local schemas payloads are decoded by (`--schema`). */
  readonly schemas?: SchemaSet;
}

/** `keyOrder`: the order of the keys' tracks, for the formats that have tracks (chrome-trace). */
export function createFormatter(format: TraceFormat, keyOrder?: KeyOrder, options: ExportOptions = {}): TraceFormatter<TraceChunk> {
  switch (format) {
    case 'jsonl':
      return new JsonlFormatter(options.mdp3 === true, options.schemas);
    case 'csv':
      return new CsvFormatter();
    case 'chrome-trace':
      return new ChromeTraceFormatter(keyOrder);
    case 'parquet':
      return new ParquetFormatter();
  }
}
