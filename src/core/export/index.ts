import { ChromeTraceFormatter } from './chromeTraceFormatter';
import { CsvFormatter } from './csvFormatter';
import { JsonlFormatter } from './jsonlFormatter';
import { TraceFormat, TraceFormatter } from './traceFormatter';
import type { KeyOrder } from '../trace/keyOrder';

export * from './traceFormatter';

/** `keyOrder`: the order of the keys' tracks, for the formats that have tracks (chrome-trace). */
export function createFormatter(format: TraceFormat, keyOrder?: KeyOrder): TraceFormatter {
  switch (format) {
    case 'jsonl':
      return new JsonlFormatter();
    case 'csv':
      return new CsvFormatter();
    case 'chrome-trace':
      return new ChromeTraceFormatter(keyOrder);
  }
}
