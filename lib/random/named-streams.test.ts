import { describe, expect, it } from "vitest";
import { createRandom } from "./streams";
import { deriveSeed, Random } from "./named-streams";

const take = (r: { nextUint32(): number }, n: number) => Array.from({ length: n }, () => r.nextUint32());

describe("Random", () => {
  it("is lib/metrics' sfc32 stream, seed for seed, as when the recorded figures were made", () => {
    const r = new Random(1);
    expect([r.next(), r.next(), r.next()]).toEqual([0.4256499295588583, 0.79042171058245, 0.6910148127935827]);
    expect(Random.from(0, "x", 3).next()).toBe(0.5895675262436271);
    for (const seed of [0, 5, 123456789, 4294967295]) expect(take(new Random(seed), 50)).toEqual(take(createRandom(seed), 50));
  });

  it("repeats a stream for the same seed and name, and separates names and seeds", () => {
    expect(take(Random.from(5, "fit", 3), 8)).toEqual(take(Random.from(5, "fit", 3), 8));
    expect(take(Random.from(5, "fit", 3), 8)).not.toEqual(take(Random.from(5, "fit", 4), 8));
    expect(take(Random.from(5, "fit", 3), 8)).not.toEqual(take(Random.from(6, "fit", 3), 8));
    expect(deriveSeed(1, "a", 1)).not.toBe(deriveSeed(1, "a1"));
  });

  it("is uniform: mean 1/2, variance 1/12, every decile about 10%", () => {
    const r = new Random(42);
    const n = 100_000;
    const deciles = new Array<number>(10).fill(0);
    let sum = 0;
    let sumSq = 0;
    for (let i = 0; i < n; i++) {
      const u = r.next();
      expect(u >= 0 && u < 1).toBe(true);
      sum += u;
      sumSq += u * u;
      deciles[Math.floor(u * 10)]++;
    }
    expect(sum / n).toBeCloseTo(0.5, 2);
    expect(sumSq / n - (sum / n) ** 2).toBeCloseTo(1 / 12, 2);
    for (const d of deciles) expect(Math.abs(d / n - 0.1)).toBeLessThan(0.005);
  });

  it("samples a categorical distribution at its probabilities", () => {
    const r = new Random(9);
    const probs = Float32Array.from([0, 0.2, 0.5, 0.3]);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 50_000; i++) counts[r.categorical(probs, 0, 4)]++;
    expect(counts[0]).toBe(0);
    // within 4 standard errors of the probability
    for (const [k, p] of [[1, 0.2], [2, 0.5], [3, 0.3]]) expect(Math.abs(counts[k] / 50_000 - p)).toBeLessThan(4 * Math.sqrt((p * (1 - p)) / 50_000));
  });

  it("shuffles into a permutation", () => {
    const a = new Random(1).shuffle(Int32Array.from({ length: 50 }, (_, i) => i));
    expect(Array.from(a).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(Array.from(a)).not.toEqual(Array.from({ length: 50 }, (_, i) => i));
  });
});
