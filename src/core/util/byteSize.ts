/** Whole mebibytes, for messages and figures that count in MiB. */
export function mebibytes(bytes: number): number {
  return Math.round(bytes / 2 ** 20);
}

/** A size for people: "300 B", "1.5 KB", "473.0 MB", "2.10 GB" (powers of 1 024). */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 ** 2) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}
