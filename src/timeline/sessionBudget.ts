/**
 * Whether a capture's session fits the memory the extension host can spare, before it is read
 * and while it loads. A session keeps a few columns per message (arrivals, events, their per-key
 * lists), so its size follows the number of messages; a JSON Lines capture's number of messages
 * follows from its size and the length of the lines at its head. The estimate says "too big" at
 * once, before gigabytes are read; the guard stops a load that grows past the room anyway (lines
 * longer further on, more events per message, other extensions' memory), keeping what was read,
 * so that the extension host is never the process the system runs out of memory in. Pure: the
 * caller reads the file's head, the memory and the clock.
 */

/**
 * What the extension host takes while a session loads, at the load's peak: the loading threads'
 * heaps whatever the capture (`fixed`), and per message the session's columns with their slack
 * and the chunks in flight.
 */
export interface LoadCost {
  readonly fixed: number;
  readonly perMessage: number;
}

export const LOAD_COST: LoadCost = { fixed: 256 * 2 ** 20, perMessage: 176 };

/** The estimate's margin on the messages' share: lines at the head may be longer than the rest. */
export const ESTIMATE_MARGIN = 1.25;

/** The head of a capture, for the estimate. */
export interface CaptureSample {
  /** The capture's whole size (all its files), bytes. */
  readonly totalBytes: number;
  /** Bytes read at the head (of the files read from), and the complete lines among them. */
  readonly sampleBytes: number;
  readonly sampleLines: number;
}

export interface SessionFit {
  /** Messages the capture holds, as far as its head tells. */
  readonly messages: number;
  /** Memory the session would take while it loads, with the margin. */
  readonly need: number;
  /** Memory the extension host can spare for it. */
  readonly room: number;
  readonly fits: boolean;
  /** Of the capture, the bytes whose messages fit the room (all of it when it fits), and those messages. */
  readonly partBytes: number;
  readonly partMessages: number;
}

/** The messages a capture holds, from the lines at its head (a capture read whole: those). */
export function estimateMessages(s: CaptureSample): number {
  if (s.sampleBytes >= s.totalBytes) return s.sampleLines;
  // A head without a whole line: lines longer than it.
  return Math.ceil((s.totalBytes * Math.max(1, s.sampleLines)) / s.sampleBytes);
}

/** Whether the capture's session fits `room` bytes, and what part of it does. */
export function sessionFit(s: CaptureSample, room: number, cost: LoadCost = LOAD_COST): SessionFit {
  if (!(room >= 0) || !(cost.perMessage > 0) || !(cost.fixed >= 0)) throw new RangeError('need room ≥ 0, perMessage > 0 and fixed ≥ 0');
  const messages = estimateMessages(s);
  const perMessage = cost.perMessage * ESTIMATE_MARGIN;
  const need = cost.fixed + messages * perMessage;
  if (need <= room) return { messages, need, room, fits: true, partBytes: s.totalBytes, partMessages: messages };
  const partMessages = Math.max(0, Math.floor((room - cost.fixed) / perMessage));
  const partBytes = messages > 0 ? Math.floor((s.totalBytes * partMessages) / messages) : 0;
  return { messages, need, room, fits: false, partBytes, partMessages };
}

/** The memory a load's guard watches, bytes. */
export interface MemoryReading {
  /** The process's resident memory. */
  readonly resident: number;
}

/** Why the guard stopped a load. */
export interface MemoryStop {
  /** What the load had added to the process when it stopped, and the room it had. */
  readonly grown: number;
  readonly room: number;
}

/**
 * Stops a load whose process grows by more than `room` over what it held when the load began.
 * `check` after each batch; once it has stopped it stays stopped.
 */
export class SessionMemoryGuard {
  private readonly start: number;
  private stoppedWith: MemoryStop | undefined;

  constructor(
    private readonly room: number,
    private readonly read: () => MemoryReading,
  ) {
    if (!(room >= 0)) throw new RangeError('need room ≥ 0');
    this.start = read().resident;
  }

  /** Where the load stood when the guard stopped it; undefined while it has not. */
  get stopped(): MemoryStop | undefined {
    return this.stoppedWith;
  }

  /** True once the load has outgrown its room (and from then on). */
  check(): boolean {
    if (this.stoppedWith) return true;
    const grown = this.read().resident - this.start;
    if (grown <= this.room) return false;
    this.stoppedWith = { grown, room: this.room };
    return true;
  }
}
