/** Order statistics of the benchmarks' samples. */

/** The `p`th percentile (nearest rank below); NaN for no samples. */
export function percentile(values: readonly number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
}

/** The median, as `percentile(values, 50)`. */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}
