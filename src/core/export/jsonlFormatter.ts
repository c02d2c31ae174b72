import { decodeMdp3Base64, isMdp3Error } from '../capture/mdp3';
import { TraceEvent } from '../trace/traceEvents';
import { TraceFormatter } from './traceFormatter';

/**
 * One JSON object per line: the format SeqScope itself can read back. With `mdp3`, a message
 * whose payload is a whole MDP 3.0 packet also carries it decoded (`"mdp3": {msgSeqNum,
 * sendingTimeNs, messages}`, after the event's own fields).
 */
export class JsonlFormatter implements TraceFormatter {
  /** Without the decoded packets, which read the payload. */
  readonly splices: boolean;

  constructor(private readonly mdp3 = false) {
    this.splices = !mdp3;
  }

  header(): string {
    return '';
  }

  format(events: readonly TraceEvent[], json?: readonly (string | undefined)[]): string {
    let s = '';
    if (!this.mdp3) {
      for (let i = 0; i < events.length; i++) {
        const j = json?.[i];
        s += (j === undefined ? JSON.stringify(events[i]) : spliced(events[i], j)) + '\n';
      }
      return s;
    }
    for (let i = 0; i < events.length; i++) {
      const ev = events[i];
      const p = ev.type === 'message' ? decodeMdp3Base64(ev.data) : undefined;
      s += JSON.stringify(p === undefined || isMdp3Error(p) ? ev : { ...ev, mdp3: p }) + '\n';
    }
    return s;
  }

  footer(): string {
    return '';
  }
}

/**
 * The event's JSON with its record's fields put back where JSON.stringify of the whole event
 * writes them: before `arrivedAt` (a message) or `at` (a duplicate, a late). A key's quote there
 * cannot be inside a string value, where every quote is escaped.
 */
function spliced(ev: TraceEvent, json: string): string {
  const text = JSON.stringify(ev);
  if (json === '') return text;
  const at = text.indexOf(ev.type === 'message' ? ',"arrivedAt":' : ',"at":');
  if (at < 0) throw new RangeError(`a ${ev.type} event has no place for its record's fields`);
  return `${text.slice(0, at)},${json}${text.slice(at)}`;
}
