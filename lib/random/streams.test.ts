import { describe, expect, it } from "vitest";
import { createRandom, permutation, sampleWithoutReplacement, Sfc32 } from "./streams";

describe("createRandom", () => {
  it("repeats its sequence for a seed and differs across seeds", () => {
    const a = createRandom(42);
    const b = createRandom(42);
    const c = createRandom(43);
    const sa = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(sa);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(sa);
  });

  it("is roughly uniform: mean 1/2, variance 1/12, every bucket of int(10) used", () => {
    const r = createRandom(7);
    const n = 100_000;
    let sum = 0;
    let sq = 0;
    const buckets = new Array(10).fill(0);
    for (let i = 0; i < n; i++) {
      const x = r.next();
      expect(x >= 0 && x < 1).toBe(true);
      sum += x;
      sq += x * x;
      buckets[r.int(10)]++;
    }
    expect(sum / n).toBeCloseTo(0.5, 2);
    expect(sq / n - (sum / n) ** 2).toBeCloseTo(1 / 12, 2);
    for (const b of buckets) expect(Math.abs(b - n / 10)).toBeLessThan(600);
  });

  it("samples distinct sorted indices and permutes", () => {
    const r = createRandom(1);
    const s = sampleWithoutReplacement(100, 30, r);
    expect(new Set(s).size).toBe(30);
    expect(Array.from(s)).toEqual(Array.from(s).sort((x, y) => x - y));
    expect(Array.from(permutation(8, r)).sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});

describe("Sfc32", () => {
  it("stays the stream the recorded figures were made with, a large seed's high bits folded in", () => {
    const r = createRandom(0);
    expect(Array.from({ length: 3 }, () => r.next())).toEqual([0.9791452463250607, 0.8250711336731911, 0.2846157543826848]);
    expect(createRandom(2 ** 40 + 3).next()).toBe(new Sfc32((2 ** 40 + 3) ^ 2 ** 8).next());
    expect(createRandom(Number.NaN).next()).toBe(new Sfc32(0).next());
  });
});

describe("skip", () => {
  it("moves the stream past exactly as many draws as next() would take", () => {
    const a = new Sfc32(5);
    const b = new Sfc32(5);
    for (let i = 0; i < 1000; i++) a.next();
    b.skip(1000);
    expect(b.next()).toBe(a.next());
  });
});
