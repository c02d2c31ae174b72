import { decodeMdp3Base64, isMdp3Error } from '../capture/mdp3';
import { schemaReading } from '../capture/payloadJson';
import type { SchemaSet } from '../schema/schemaSet';
import { MessageEvent, TraceEvent } from '../trace/traceEvents';
import { TraceFormatter } from './traceFormatter';

/**
 * One JSON object per line: the format SeqScope itself can read back. With `mdp3`, a message
 * whose payload is a whole MDP 3.0 packet also carries it decoded (`"mdp3": {msgSeqNum,
 * sendingTimeNs, messages}`, after the event's own fields). A message whose payload has a schema
 * (its `googclient_*` attributes, or the export's default schema) carries the record decoded by
 * it (`"decoded"`), or why it does not match it (`"decodeError"`).
 */
export class JsonlFormatter implements TraceFormatter {
  constructor(
    private readonly mdp3 = false,
    private readonly schemas?: SchemaSet,
  ) {}

  header(): string {
    return '';
  }

  format(events: readonly TraceEvent[]): string {
    let s = '';
    for (let i = 0; i < events.length; i++) {
      const ev = events[i];
      s += JSON.stringify(ev.type === 'message' ? this.withPayload(ev) : ev) + '\n';
    }
    return s;
  }

  footer(): string {
    return '';
  }

  private withPayload(ev: MessageEvent): object {
    if (this.mdp3) {
      const p = decodeMdp3Base64(ev.data);
      if (!isMdp3Error(p)) return { ...ev, mdp3: p };
    }
    const r = schemaReading(ev.data, ev.attributes, undefined, this.schemas, ev.decodedBy);
    if (r === undefined) return ev;
    return r.kind === 'decoded' ? { ...ev, decoded: r.record } : { ...ev, decodeError: r.reason };
  }
}
