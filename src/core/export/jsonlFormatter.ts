import { decodeMdp3Base64, isMdp3Error } from '../capture/mdp3';
import { TraceEvent } from '../trace/traceEvents';
import { TraceFormatter } from './traceFormatter';

/**
 * One JSON object per line: the format SeqScope itself can read back. With `mdp3`, a message
 * whose payload is a whole MDP 3.0 packet also carries it decoded (`"mdp3": {msgSeqNum,
 * sendingTimeNs, messages}`, after the event's own fields).
 */
export class JsonlFormatter implements TraceFormatter {
  constructor(private readonly mdp3 = false) {}

  header(): string {
    return '';
  }

  format(events: readonly TraceEvent[]): string {
    let s = '';
    if (!this.mdp3) {
      for (let i = 0; i < events.length; i++) s += JSON.stringify(events[i]) + '\n';
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
