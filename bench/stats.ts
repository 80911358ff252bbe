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

/**
 * Seeded random numbers in [0, 1) (mulberry32): the same seed gives the same sequence, so a
 * training or a resampling run twice on the same data gives the same answer.
 */
export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The mean; NaN for no values. */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

/**
 * The difference of the means of two samples, mean(a) − mean(b), and its 95% bootstrap
 * interval: each sample is drawn again with replacement `resamples` times, and the interval is
 * the 2.5th and 97.5th percentiles of the differences. It says how far the difference could
 * move by the draw of pages alone; NaN when a sample is empty.
 *
 * @example
 * bootstrapDifference(tuningF1s, heldOutF1s); // { difference: 0.028, low: 0.000, high: 0.057 }
 */
export function bootstrapDifference(
  a: readonly number[],
  b: readonly number[],
  options: { resamples?: number; seed?: number } = {},
): { difference: number; low: number; high: number } {
  const { resamples = 2000, seed = 1 } = options;
  const difference = mean(a) - mean(b);
  if (a.length === 0 || b.length === 0) return { difference, low: Number.NaN, high: Number.NaN };
  const random = seededRandom(seed);
  const draw = (values: readonly number[]) => {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[Math.floor(random() * values.length)]!;
    return sum / values.length;
  };
  const differences: number[] = [];
  for (let i = 0; i < resamples; i++) differences.push(draw(a) - draw(b));
  return {
    difference,
    low: percentile(differences, 2.5),
    high: percentile(differences, 97.5),
  };
}

/**
 * The median of a sample and its 95% bootstrap interval: the sample is drawn again with
 * replacement `resamples` times, and the interval is the 2.5th and 97.5th percentiles of the
 * medians. It says how far the figure could move by the draw of rounds alone (a round slowed
 * by other work on the machine); NaN for no values.
 *
 * @example
 * bootstrapMedian(ratiosPerRound); // { median: 1.49, low: 1.45, high: 1.53 }
 */
export function bootstrapMedian(
  values: readonly number[],
  options: { resamples?: number; seed?: number } = {},
): { median: number; low: number; high: number } {
  const { resamples = 2000, seed = 1 } = options;
  const middle = median(values);
  if (values.length === 0) return { median: middle, low: Number.NaN, high: Number.NaN };
  const random = seededRandom(seed);
  const medians: number[] = [];
  for (let i = 0; i < resamples; i++) {
    const drawn = Array.from(values, () => values[Math.floor(random() * values.length)]!);
    medians.push(median(drawn));
  }
  return { median: middle, low: percentile(medians, 2.5), high: percentile(medians, 97.5) };
}
