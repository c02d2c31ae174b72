/** A/B pairs from scripts/lib/abPairGenerator.ts written to temporary capture files. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pair, PairOptions, pairLines, planPair } from '../../scripts/lib/abPairGenerator';

export interface PairFiles {
  readonly pair: Pair;
  readonly a: string;
  readonly b: string;
  readonly dir: string;
  remove(): void;
}

export function writePair(options: PairOptions): PairFiles {
  const pair = planPair(options);
  const dir = mkdtempSync(join(tmpdir(), 'seqscope-compare-'));
  const a = join(dir, 'a.jsonl');
  const b = join(dir, 'b.jsonl');
  writeFileSync(a, [...pairLines(pair, 0)].map((l) => l + '\n').join(''));
  writeFileSync(b, [...pairLines(pair, 1)].map((l) => l + '\n').join(''));
  return { pair, a, b, dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
