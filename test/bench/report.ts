/** Markdown formatting for the benchmark report. */

export function table(header: string[], rows: (string | number)[][]): string {
  const cells = rows.map((r) => r.map(String));
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`];
  for (const r of cells) lines.push(`| ${r.join(' | ')} |`);
  return lines.join('\n');
}

/** 12 345 678 → "12.35 M". */
export function rate(perSecond: number): string {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)} M`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(1)} k`;
  return perSecond.toFixed(0);
}

export function count(n: number): string {
  return n.toLocaleString('en-US');
}

export function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(bytes < 2 ** 30 ? 0 : 1)} MiB`;
}

export function seconds(ms: number): string {
  return ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

export function ratio(x: number): string {
  return `${x.toFixed(2)}×`;
}

/** "✅ met" / "❌ missed", for a target. */
export function verdict(ok: boolean): string {
  return ok ? '✅ met' : '❌ missed';
}

/** "✓" when a run found exactly what was injected, else the differences. */
export function checked(problems: string[]): string {
  return problems.length ? `✗ ${problems.join('; ')}` : '✓';
}
