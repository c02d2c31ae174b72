/** The findings `replay --fail-on` names, how many of each a summary holds, and how they are worded. */
import { ReplaySummary } from '../core/replay/replayEngine';
import { noun } from '../core/util/plural';

export const FINDINGS = ['gap', 'duplicate', 'conflict', 'late', 'reordered', 'invalid', 'reset'] as const;
export type Finding = (typeof FINDINGS)[number];

/** How `--fail-on` names what it found: "2 late messages", not "2 lates". */
const FINDING_NOUNS: Record<Finding, [string, string]> = {
  gap: ['gap', 'gaps'],
  duplicate: ['duplicate', 'duplicates'],
  conflict: ['conflicting copy', 'conflicting copies'],
  late: ['late message', 'late messages'],
  reordered: ['reordered message', 'reordered messages'],
  invalid: ['invalid record', 'invalid records'],
  reset: ['sequence reset', 'sequence resets'],
};

/** How many times `f` occurred in the run. */
export function findingCount(s: ReplaySummary, f: Finding): number {
  switch (f) {
    case 'gap':
      return s.gaps;
    case 'duplicate':
      return s.duplicates;
    case 'conflict':
      return s.conflicts;
    case 'late':
      return s.late;
    case 'reordered':
      return s.reordered;
    case 'invalid':
      return s.invalid;
    case 'reset':
      return s.resets;
  }
}

/** "2 late messages": how many times `f` occurred, in words. */
export function findingInWords(s: ReplaySummary, f: Finding): string {
  const n = findingCount(s, f);
  return `${n} ${noun(n, ...FINDING_NOUNS[f])}`;
}
