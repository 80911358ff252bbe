import { describe, expect, it } from "vitest";
import { bootstrapDifference, bootstrapMedian, seededRandom } from "../../bench/stats.js";

describe("seededRandom", () => {
  it("gives the same numbers for the same seed, in [0, 1)", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(seededRandom(43)()).not.toBe(xs[0]);
  });
});

describe("bootstrapDifference", () => {
  it("is the difference of the means, with no width when the samples do not vary", () => {
    expect(bootstrapDifference([0.9, 0.9, 0.9], [0.8, 0.8])).toEqual({
      difference: expect.closeTo(0.1, 12),
      low: expect.closeTo(0.1, 12),
      high: expect.closeTo(0.1, 12),
    });
  });

  it("brackets the difference, and narrows as the samples grow", () => {
    const random = seededRandom(7);
    const sample = (n: number, mean: number) =>
      Array.from({ length: n }, () => mean + (random() - 0.5) * 0.6);
    const small = bootstrapDifference(sample(50, 0.9), sample(20, 0.85));
    const large = bootstrapDifference(sample(5000, 0.9), sample(2000, 0.85));
    for (const { difference, low, high } of [small, large]) {
      expect(low).toBeLessThan(difference);
      expect(high).toBeGreaterThan(difference);
    }
    expect(large.high - large.low).toBeLessThan((small.high - small.low) / 4);
    expect(large.low).toBeGreaterThan(0.03);
    expect(large.high).toBeLessThan(0.07);
  });

  it("gives the same interval for the same seed", () => {
    const a = [0.1, 0.5, 0.9, 0.7];
    const b = [0.2, 0.4];
    expect(bootstrapDifference(a, b, { seed: 3 })).toEqual(bootstrapDifference(a, b, { seed: 3 }));
  });

  it("has no interval for an empty sample", () => {
    const { low, high } = bootstrapDifference([], [0.5]);
    expect(low).toBeNaN();
    expect(high).toBeNaN();
  });
});

describe("bootstrapMedian", () => {
  it("is the median, with no width when the sample does not vary", () => {
    expect(bootstrapMedian([1.5, 1.5, 1.5])).toEqual({ median: 1.5, low: 1.5, high: 1.5 });
  });

  it("brackets the median, narrows as the sample grows, and repeats for the same seed", () => {
    const random = seededRandom(11);
    const sample = (n: number) => Array.from({ length: n }, () => 1.5 + (random() - 0.5) * 0.4);
    const small = bootstrapMedian(sample(21));
    const large = bootstrapMedian(sample(801));
    for (const { median, low, high } of [small, large]) {
      expect(low).toBeLessThanOrEqual(median);
      expect(high).toBeGreaterThanOrEqual(median);
    }
    expect(large.high - large.low).toBeLessThan((small.high - small.low) / 2);
    const again = [0.9, 1.4, 1.6, 1.2, 2.0];
    expect(bootstrapMedian(again, { seed: 3 })).toEqual(bootstrapMedian(again, { seed: 3 }));
  });

  it("has no interval for no values", () => {
    const { median, low, high } = bootstrapMedian([]);
    expect([median, low, high].every(Number.isNaN)).toBe(true);
  });
});
