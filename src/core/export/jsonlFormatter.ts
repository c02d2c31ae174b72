import { TraceEvent } from '../trace/traceEvents';
import { TraceFormatter } from './traceFormatter';

/** One JSON object per line: the format SeqScope itself can read back. */
export class JsonlFormatter implements TraceFormatter {
  header(): string {
    return '';
  }

  format(events: readonly TraceEvent[]): string {
    let s = '';
    for (let i = 0; i < events.length; i++) s += JSON.stringify(events[i]) + '\n';
    return s;
  }

  footer(): string {
    return '';
  }
}
