import { ChromeTraceFormatter } from './chromeTraceFormatter';
import { CsvFormatter } from './csvFormatter';
import { JsonlFormatter } from './jsonlFormatter';
import { ParquetFormatter } from './parquetFormatter';
import { TraceChunk, TraceFormat, TraceFormatter } from './traceFormatter';
import type { KeyOrder } from '../trace/keyOrder';

export * from './traceFormatter';

/** What the export adds to the events: the decoded MDP 3.0 packet of each message (JSONL). */
export interface ExportOptions {
  readonly mdp3?: boolean;
}

/** `keyOrder`: the order of the keys' tracks, for the formats that have tracks (chrome-trace). */
export function createFormatter(format: TraceFormat, keyOrder?: KeyOrder, options: ExportOptions = {}): TraceFormatter<TraceChunk> {
  switch (format) {
    case 'jsonl':
      return new JsonlFormatter(options.mdp3 === true);
    case 'csv':
      return new CsvFormatter();
    case 'chrome-trace':
      return new ChromeTraceFormatter(keyOrder);
    case 'parquet':
      return new ParquetFormatter();
  }
}
