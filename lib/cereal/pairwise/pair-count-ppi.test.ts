import { describe, expect, it } from "vitest";
import { ari, fowlkesMallows } from "@/lib/metrics";
import { Random } from "../../random/named-streams";
import { drawUniformPairs, pairKey } from "./pair-designs";
import { pairCountMetrics, pairCounts, type PairStage } from "./pair-count-ppi";

const n = 40;
const k = 4;
const truth = Int32Array.from({ length: n }, (_, i) => i % k);
const clusters = Int32Array.from({ length: n }, (_, i) => (i < 25 ? i % 2 : 2));
const total = (n * (n - 1)) / 2;

/** p(.|x) mixing one-hot truth with uniform: mix 1 is a perfect model */
function predictions(mix: number): Float32Array {
  const p = new Float32Array(n * k);
  for (let i = 0; i < n; i++) for (let c = 0; c < k; c++) p[i * k + c] = (1 - mix) / k + (c === truth[i] ? mix : 0);
  return p;
}

function trueCounts() {
  let s = 0;
  let a = 0;
  let b = 0;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const same = truth[i] === truth[j];
      const together = clusters[i] === clusters[j];
      if (same) s++;
      if (together) b++;
      if (same && together) a++;
    }
  return { s, a, b };
}

/** two uniform stages of m pairs: the seed (no model) and one corrected with `proba` */
function stages(random: Random, m: number, proba: Float32Array | null): PairStage[] {
  const taken = new Set<string>();
  return [null, proba].map((p) => {
    const draws = drawUniformPairs(n, m, random, taken);
    for (const d of draws) taken.add(pairKey(d.row, d.rowB));
    return {
      a: Int32Array.from(draws, (d) => d.row),
      b: Int32Array.from(draws, (d) => d.rowB),
      same: Uint8Array.from(draws, (d) => (truth[d.row] === truth[d.rowB] ? 1 : 0)),
      q: Float64Array.from(draws, (d) => d.q),
      proba: p,
      k,
    };
  });
}

describe("prediction-powered pair counts", () => {
  it("are exact with a perfect model: the answered pairs count as known and the model counts the rest", () => {
    const counts = pairCounts(clusters, stages(new Random(1), 60, predictions(1)));
    const t = trueCounts();
    expect(counts.b).toBe(t.b);
    expect(counts.s).toBeCloseTo(t.s, 6);
    expect(counts.a).toBeCloseTo(t.a, 6);
    // and give the true ARI and FMI
    const metrics = pairCountMetrics(counts);
    expect(metrics.ari).toBeCloseTo(ari(truth, clusters), 6);
    expect(metrics.fmi).toBeCloseTo(fowlkesMallows(truth, clusters), 6);
  });

  it("are the Horvitz-Thompson count of a single seed stage without a model", () => {
    const [seed] = stages(new Random(2), 50, null);
    const same = seed.same.reduce((x, y) => x + y, 0);
    expect(pairCounts(clusters, [seed]).s).toBeCloseTo(same / (50 / total), 9);
  });

  it("are unbiased with a weak model, and closer to the truth than the labels alone", () => {
    const t = trueCounts();
    const random = new Random(3);
    let sumPpi = 0;
    let squaredPpi = 0;
    let squaredHt = 0;
    const reps = 400;
    for (let r = 0; r < reps; r++) {
      const [seed, second] = stages(random, 40, predictions(0.6));
      const ppi = pairCounts(clusters, [seed, second]).s;
      // the second stage alone with lambda = 0: known seed answers plus its HT count of the rest
      const ht = pairCounts(clusters, [seed, { ...second, proba: predictions(0) }]).s;
      sumPpi += ppi;
      squaredPpi += (ppi - t.s) ** 2;
      squaredHt += (ht - t.s) ** 2;
    }
    expect(Math.abs(sumPpi / reps - t.s) / t.s).toBeLessThan(0.02);
    expect(squaredPpi).toBeLessThan(squaredHt / 2);
  });
});
