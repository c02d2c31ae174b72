/**
 * Issue 40: what decoding a payload by its schema costs per message, next to the JSON payload
 * path. The same records — keyed and numbered by their fields (`--key json:channel --seq
 * json:seq`) — written three ways: JSON text; Avro binary; Protocol Buffers binary, the last two
 * read with `--schema FILE`.
 *
 *   - The payload alone: in this process, every message's payload turned into the record the
 *     `json:` fields read (parsePayloadJson, what the replay calls), best of PASSES passes after a
 *     warm-up one; each record's `seq` checked against the generator's.
 *   - The whole replay: each capture replayed by the built CLI on one scanning thread
 *     (`--threads 1 --json`), interleaved, best of REPS CPU (user + system) and wall times. Every
 *     run's summary must be the generator's: every record delivered, the injected second
 *     publishes counted as duplicates, no gap, nothing invalid.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from 'avsc';
import protobuf from 'protobufjs';
import { schemasFromFlags } from '../../src/cli/schemaFlags';
import { parsePayloadJson } from '../../src/core/capture/payloadJson';
import type { ReceivedMessage } from '../../src/core/capture/receivedMessage';
import { BENCH_DIR, bestRuns, type ProcessRun } from './cliBench';
import { checked, count, mib, ratio, seconds, table } from './report';

const RECORDS = 200_000;
const KEYS = 10;
/** Every DUP_EVERY-th record is published a second time (a new messageId): a duplicate. */
const DUP_EVERY = 1_000;
const DUPLICATES = Math.floor(RECORDS / DUP_EVERY);
const REPS = 3;
const PASSES = 5;

const AVRO_SCHEMA = {
  type: 'record',
  name: 'Trade',
  namespace: 'bench',
  fields: [
    { name: 'channel', type: 'string' },
    { name: 'seq', type: 'long' },
    { name: 'px', type: 'double' },
    { name: 'qty', type: 'int' },
    { name: 'side', type: { type: 'enum', name: 'Side', symbols: ['BUY', 'SELL'] } },
    { name: 'venue', type: ['null', 'string'], default: null },
  ],
};
const PROTO = `syntax = "proto3";
package bench;
message Trade {
  enum Side { BUY = 0; SELL = 1; }
  string channel = 1;
  int64 seq = 2;
  double px = 3;
  int32 qty = 4;
  Side side = 5;
  string venue = 6;
}
`;

export interface SchemaBenchRow {
  readonly label: string;
  readonly bytes: number;
  /** The payload alone, in process: best pass, per message. */
  readonly payloadUs: number;
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly maxRss: number;
  readonly problems: string[];
}

interface Trade {
  channel: string;
  seq: number;
  px: number;
  qty: number;
  side: 'BUY' | 'SELL';
  venue: string | null;
}

function trades(): Trade[] {
  const out: Trade[] = [];
  for (let i = 0; i < RECORDS; i++) {
    const t: Trade = {
      channel: `acct-${i % KEYS}`,
      seq: Math.floor(i / KEYS) + 1,
      px: 101.25 + (i % 400) / 8,
      qty: i % 97,
      side: i % 3 ? 'BUY' : 'SELL',
      venue: i % 5 ? 'XCME' : null,
    };
    out.push(t);
    if ((i + 1) % DUP_EVERY === 0) out.push(t);
  }
  return out;
}

/** The three captures (and the schema files), written once into .bench/. */
function files(): { label: string; path: string; args: string[] }[] {
  const dir = join(BENCH_DIR, `schemas-${RECORDS}`);
  const avsc = join(dir, 'trade.avsc');
  const proto = join(dir, 'trade.proto');
  const inputs = [
    { label: 'JSON text (no schema)', path: join(dir, 'json.jsonl'), args: [] as string[] },
    { label: 'Avro binary, `--schema trade.avsc`', path: join(dir, 'avro.jsonl'), args: ['--schema', avsc] },
    { label: 'Protocol Buffers binary, `--schema trade.proto`', path: join(dir, 'protobuf.jsonl'), args: ['--schema', proto] },
  ];
  if (!inputs.every((f) => existsSync(f.path))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(avsc, JSON.stringify(AVRO_SCHEMA));
    writeFileSync(proto, PROTO);
    const avro = Type.forSchema(AVRO_SCHEMA as never);
    const pb = protobuf.parse(PROTO, { keepCase: true }).root.lookupType('bench.Trade');
    const writers: ((t: Trade) => Uint8Array)[] = [
      (t) => Buffer.from(JSON.stringify(t)),
      (t) => avro.toBuffer(t),
      (t) => pb.encode(pb.fromObject({ ...t, venue: t.venue ?? '' })).finish(),
    ];
    const all = trades();
    const t0 = Date.parse('2026-12-01T14:30:00Z');
    inputs.forEach((f, k) => {
      const lines = all.map((t, i) =>
        JSON.stringify({
          message: { data: Buffer.from(writers[k](t)).toString('base64'), messageId: String(5_000_000 + i), publishTime: new Date(t0 + i).toISOString() },
        }),
      );
      writeFileSync(f.path, lines.join('\n') + '\n');
    });
  }
  return inputs;
}

function checkRun(run: ProcessRun): string[] {
  const s = JSON.parse(run.stdout) as Record<string, number>;
  const want: Record<string, number> = { received: RECORDS + DUPLICATES, delivered: RECORDS, duplicates: DUPLICATES, gaps: 0, invalid: 0, keys: KEYS };
  return Object.keys(want)
    .filter((k) => s[k] !== want[k])
    .map((k) => `${k} ${s[k]} ≠ ${want[k]}`);
}

/** Best time per message over PASSES passes of parsePayloadJson over the capture's messages (after one untimed pass), each record checked. */
function payloadPass(path: string, args: readonly string[], problems: string[]): number {
  const rms = readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as ReceivedMessage);
  const schemas = schemasFromFlags(args.length ? [args[1]] : undefined);
  const want = trades();
  let best = Infinity;
  for (let pass = 0; pass <= PASSES; pass++) {
    let wrong = 0;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < rms.length; i++) {
      const r = parsePayloadJson(rms[i], schemas);
      // Protocol Buffers' 64-bit integers read as decimal strings (proto3 JSON), Avro's as numbers up to 2^53.
      if (!('value' in r) || String((r.value as { seq: number | string }).seq) !== String(want[i].seq)) wrong++;
    }
    const ns = Number(process.hrtime.bigint() - t0);
    if (wrong && pass === 0) problems.push(`${wrong} records read wrong`);
    if (pass > 0) best = Math.min(best, ns / 1000 / rms.length);
  }
  return best;
}

export async function benchSchemas(progress: (text: string) => void, cli: string): Promise<SchemaBenchRow[]> {
  progress('schemas: writing (or reusing) the captures');
  const inputs = files();
  const payload = inputs.map((f) => {
    const problems: string[] = [];
    const us = payloadPass(f.path, f.args, problems);
    progress(`schemas: ${f.label}, payload alone ${us.toFixed(2)} µs/message`);
    return { us, problems };
  });
  const runs = bestRuns(
    REPS,
    inputs.map((f) => [cli, 'replay', f.path, '--key', 'json:channel', '--seq', 'json:seq', '--threads', '1', '--json', ...f.args]),
    (i, run) => progress(`schemas: ${inputs[i].label} ${seconds(run.cpuMs)} CPU`),
  );
  return runs.map((run, i) => ({
    label: inputs[i].label,
    bytes: statSync(inputs[i].path).size,
    payloadUs: payload[i].us,
    cpuMs: run.cpuMs,
    wallMs: run.wallMs,
    maxRss: run.maxRssAll,
    problems: [...payload[i].problems, ...checkRun(run)],
  }));
}

export function schemaReport(rows: readonly SchemaBenchRow[], n: number): string[] {
  const base = rows[0];
  const messages = RECORDS + DUPLICATES;
  return [
    `## ${n}. Payloads decoded by their schema against JSON payloads`,
    '',
    `${count(messages)} messages on ${KEYS} keys, keyed and numbered by payload fields (\`--key json:channel --seq json:seq\`), the same records as JSON text, Avro binary and Protocol Buffers binary. *Payload alone*: each payload to the record \`json:\` fields read, in process, best of ${PASSES} passes. *Replay*: the built CLI, \`--threads 1\`, best of ${REPS} interleaved runs; CPU is user + system of the whole process.`,
    '',
    table(
      ['payload', 'capture', 'payload alone, µs/message', '× JSON', 'replay CPU', 'replay µs/message', '× JSON', 'wall', 'peak RSS', 'check'],
      rows.map((r) => [
        r.label,
        mib(r.bytes),
        r.payloadUs.toFixed(2),
        ratio(r.payloadUs / base.payloadUs),
        seconds(r.cpuMs),
        ((r.cpuMs * 1000) / messages).toFixed(2),
        ratio(r.cpuMs / base.cpuMs),
        seconds(r.wallMs),
        mib(r.maxRss),
        checked(r.problems),
      ]),
    ),
    '',
  ];
}
