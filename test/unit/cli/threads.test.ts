/**
 * `seqscope replay --threads N`: the built CLI gives the same summary and the same exported trace
 * in every format whether it reads on one thread or several — plain, gzip, standard input and
 * merged captures — and refuses a count that is not one.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildCli } from '../../support/builtCli';
import { generateCapture } from '../../../scripts/lib/captureGenerator';
import { TRACE_FORMATS } from '../../../src/core/export';

const root = join(__dirname, '..', '..', '..');
const INVALID = join(root, 'test', 'fixtures', 'captures', 'with-invalid.jsonl');

describe('seqscope replay --threads', function () {
  this.timeout(120_000);
  let dir: string;
  let cli: string;
  let a: string;
  let b: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-threads-'));
    cli = await buildCli(dir);
    // Some 1.5 MB: two ranges of a mebibyte, lines across their cuts; CRLF in the second.
    const common = {
      keys: 4,
      seqBits: 16 as const,
      reorderFraction: 0.05,
      reorderWindow: 4,
      redeliveryFraction: 0.01,
      republishFraction: 0.01,
      burst: { min: 1, max: 4 },
      burstGapMs: 1,
      intraBurstMs: 0.2,
    };
    const one = generateCapture({ ...common, seed: 3, messagesPerKey: 800, losses: [{ key: '311', from: 100, to: 102 }] });
    const two = generateCapture({ ...common, seed: 4, messagesPerKey: 300 });
    a = join(dir, 'a.jsonl');
    b = join(dir, 'b.jsonl');
    writeFileSync(a, '\ufeff' + one.lines.join('\n') + '\n');
    writeFileSync(b, two.lines.join('\r\n'));
    writeFileSync(`${a}.gz`, gzipSync(readFileSync(a)));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  function replay(threads: number, args: string[], input?: Buffer): { stdout: string; traces: Buffer[] } {
    const traces = TRACE_FORMATS.map((f) => join(dir, `trace-${threads}.${f}`));
    const outputs: Buffer[] = [];
    let stdout = '';
    for (const [i, format] of TRACE_FORMATS.entries()) {
      const r = spawnSync(
        process.execPath,
        [cli, 'replay', '--preset', 'cme', '--seq-bits', '16', '--json', '--threads', String(threads), '--export', traces[i], '--format', format, ...args],
        { cwd: root, input, encoding: 'buffer', maxBuffer: 256 << 20 },
      );
      assert.equal(r.status, 0, r.stderr.toString());
      stdout = r.stdout.toString();
      outputs.push(readFileSync(traces[i]));
    }
    return { stdout, traces: outputs };
  }

  for (const [name, args, stdin] of [
    ['a plain capture with a BOM', () => [a], undefined],
    ['a gzip capture', () => [`${a}.gz`], undefined],
    ['merged captures (one CRLF, one with invalid records)', () => [a, b, INVALID], undefined],
    ['standard input', () => ['-'], () => readFileSync(b)],
  ] as const) {
    it(`gives the same summary and traces on 1 and 3 threads: ${name}`, () => {
      const input = stdin?.();
      const one = replay(1, [...args()], input);
      assert.ok(JSON.parse(one.stdout).received > 1000);
      for (const threads of [3]) {
        const many = replay(threads, [...args()], input);
        assert.equal(many.stdout, one.stdout, `summary on ${threads} threads`);
        many.traces.forEach((t, i) => assert.ok(t.equals(one.traces[i]), `${TRACE_FORMATS[i]} trace on ${threads} threads`));
      }
    });
  }

  it('refuses a thread count that is not a whole number from 1 to 256', () => {
    for (const bad of ['0', '1.5', '257']) {
      const r = spawnSync(process.execPath, [cli, 'replay', '--threads', bad, a], { cwd: root, encoding: 'utf8' });
      assert.equal(r.status, 2, bad);
      assert.match(r.stderr, /--threads must be a whole number from 1 to 256/);
    }
  });
});
