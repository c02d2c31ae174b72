/**
 * Reading Pub/Sub archives against reading our JSON Lines: the same messages written as a Cloud
 * Storage subscription's Avro file (write_metadata; uncompressed and deflate blocks) and as a
 * SeqScope capture, each replayed by the built CLI in its own node process (`--seq attribute:n
 * --json`), interleaved, best of REPS wall times. Target: Avro within 1.5× of JSON Lines.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AvroArchiveParser } from '../../src/core/capture/avroArchive';
import { DEFAULT_OPTIONS } from '../../src/core/sequencer/sequencingOptions';
import { ArchiveMessage, encodeAvro, GCS_WITH_METADATA_SCHEMA, gcsRecord, T0_US } from '../support/archiveFixtures';
import { BENCH_DIR, bestRuns } from './cliBench';
import { checked, count, mib, ratio, seconds, table, verdict } from './report';

export const ARCHIVE_TARGET = 1.5;
const MESSAGES = 1_000_000;
const KEYS = 10;
const REPS = 3;

export interface ArchiveRow {
  readonly format: string;
  readonly bytes: number;
  readonly wallMs: number;
  readonly maxRss: number;
  readonly problems: string[];
  /** Avro files: blocks read by the fixed-layout reader, and those left to avsc (its fallback). */
  readonly blocks?: { fixed: number; avsc: number };
}

function messages(): ArchiveMessage[] {
  const out: ArchiveMessage[] = [];
  for (let i = 0; i < MESSAGES; i++) {
    const key = `acct-${i % KEYS}`;
    const n = Math.floor(i / KEYS) + 1;
    // A payload of about the size of a CME JSON message's fields.
    out.push({
      id: String(10_000_000 + i),
      us: T0_US + i * 100,
      key,
      attributes: { n: String(n), source: 'bench' },
      payload: `{"key":"${key}","n":${n},"px":"101.25","qty":${i % 97}}`,
    });
  }
  return out;
}

async function files(): Promise<{ format: string; path: string }[]> {
  const avro = join(BENCH_DIR, `archive-${MESSAGES}.avro`);
  const deflate = join(BENCH_DIR, `archive-${MESSAGES}-deflate.avro`);
  const jsonl = join(BENCH_DIR, `archive-${MESSAGES}.jsonl`);
  if (![avro, deflate, jsonl].every(existsSync)) {
    const ms = messages();
    const records = ms.map(gcsRecord);
    writeFileSync(avro, await encodeAvro(GCS_WITH_METADATA_SCHEMA, records, { blockSize: 1 << 20 }));
    writeFileSync(deflate, await encodeAvro(GCS_WITH_METADATA_SCHEMA, records, { blockSize: 1 << 20, codec: 'deflate' }));
    const lines = ms.map((m) => {
      const iso = new Date(Math.floor(m.us / 1000)).toISOString().replace('Z', `${String(m.us % 1000).padStart(3, '0')}Z`);
      return JSON.stringify({
        message: { data: Buffer.from(m.payload).toString('base64'), attributes: m.attributes, messageId: m.id, publishTime: iso, orderingKey: m.key },
      });
    });
    writeFileSync(jsonl, lines.join('\n') + '\n');
  }
  return [
    { format: 'SeqScope JSON Lines', path: jsonl },
    { format: 'Cloud Storage Avro (write_metadata)', path: avro },
    { format: 'Cloud Storage Avro, deflate blocks', path: deflate },
  ];
}

export async function benchArchives(progress: (text: string) => void, cli: string): Promise<ArchiveRow[]> {
  const inputs = await files();
  const runs = bestRuns(
    REPS,
    inputs.map(({ path }) => [cli, 'replay', path, '--seq', 'attribute:n', '--gap-timeout', '1s', '--json']),
    (i, run) => progress(`archives: ${inputs[i].format} ${seconds(run.wallMs)}`),
  );
  return runs.map((run, i) => ({
    format: inputs[i].format,
    bytes: statSync(inputs[i].path).size,
    wallMs: run.wallMs,
    maxRss: run.maxRssAll,
    problems: checkRun(run.stdout),
    blocks: inputs[i].path.endsWith('.avro') ? blockCounts(inputs[i].path) : undefined,
  }));
}

/** How the file's blocks are read, as a replay reads them (outside the timed runs). */
function blockCounts(path: string): { fixed: number; avsc: number } {
  const parser = new AvroArchiveParser(0, 'bench.avro', 0, { scan: { options: { ...DEFAULT_OPTIONS, seq: { kind: 'attribute', name: 'n' } }, keep: false } });
  const bytes = readFileSync(path);
  for (let i = 0; i < bytes.length; i += 1 << 20) parser.push(bytes.subarray(i, i + (1 << 20)));
  parser.end();
  return parser.blockCounts;
}

function checkRun(stdout: string): string[] {
  const s = JSON.parse(stdout) as { received: number; delivered: number; gaps: number; keys: number; invalid: number };
  const ok = s.received === MESSAGES && s.delivered === MESSAGES && s.gaps === 0 && s.keys === KEYS && s.invalid === 0;
  return ok ? [] : [`summary ${JSON.stringify({ received: s.received, delivered: s.delivered, gaps: s.gaps, keys: s.keys, invalid: s.invalid })}`];
}

export function archiveReport(rows: readonly ArchiveRow[], n: string): string[] {
  const base = rows[0];
  return [
    `## ${n}. Pub/Sub archives against JSON Lines (CLI replay of the same ${count(MESSAGES)} messages, ${KEYS} keys, wall time)`,
    '',
    table(
      ['input', 'size', 'wall (best)', 'messages/s', 'peak RSS', '× JSON Lines', `target ≤ ${ARCHIVE_TARGET}×`, 'blocks left to avsc', 'checked'],
      rows.map((r) => [
        r.format,
        mib(r.bytes),
        seconds(r.wallMs),
        count(Math.round(MESSAGES / (r.wallMs / 1000))),
        mib(r.maxRss),
        ratio(r.wallMs / base.wallMs),
        r === base ? '—' : verdict(r.wallMs / base.wallMs <= ARCHIVE_TARGET),
        r.blocks ? `${r.blocks.avsc} of ${r.blocks.fixed + r.blocks.avsc}` : '—',
        checked(r.problems),
      ]),
    ),
    '',
  ];
}
