import { ChromeTraceFormatter } from './chromeTraceFormatter';
import { CsvFormatter } from './csvFormatter';
import { JsonlFormatter } from './jsonlFormatter';
import { TraceFormat, TraceFormatter } from './traceFormatter';

export * from './traceFormatter';

export function createFormatter(format: TraceFormat): TraceFormatter {
  switch (format) {
    case 'jsonl':
      return new JsonlFormatter();
    case 'csv':
      return new CsvFormatter();
    case 'chrome-trace':
      return new ChromeTraceFormatter();
  }
}
