import { describe, expect, it } from "vitest";
import { contingency, metricsFromTable } from "@/lib/metrics";
import { argmaxEstimator, labelsOnlyEstimator, type EstimatorInput } from "./estimators";
import { aroundEstimate, bootstrapIntervals, drawInput, normalQuantile, quantile } from "./intervals";
import type { TestClustering } from "./problem";
import { Random } from "../../random/named-streams";

describe("quantile", () => {
  it("interpolates between order statistics like numpy", () => {
    const sorted = [1, 2, 3, 4, 5];
    expect(quantile(sorted, 0)).toBe(1);
    expect(quantile(sorted, 0.5)).toBe(3);
    expect(quantile(sorted, 0.05)).toBeCloseTo(1.2, 12);
    expect(quantile(sorted, 0.95)).toBeCloseTo(4.8, 12);
  });
});

describe("normalQuantile", () => {
  it("gives the standard normal quantiles", () => {
    expect(normalQuantile(0.5)).toBeCloseTo(0, 9);
    expect(normalQuantile(0.95)).toBeCloseTo(1.644854, 5);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5);
    expect(normalQuantile(0.005)).toBeCloseTo(-2.575829, 5);
    expect(() => normalQuantile(1)).toThrow(RangeError);
  });
});

describe("aroundEstimate", () => {
  it("keeps the draws' spread when the estimate is their median", () => {
    expect(aroundEstimate(0.5, 0.4, 0.5, 0.7)).toEqual([0.4, 0.7]);
  });
  it("widens each side by the estimate's gap to the median, in quadrature (hand computation)", () => {
    // gap 0.04; sides 0.03 and 0.12 -> 0.05 and sqrt(0.0144 + 0.0016)
    const [lo, hi] = aroundEstimate(0.54, 0.47, 0.5, 0.62);
    expect(lo).toBeCloseTo(0.49, 12);
    expect(hi).toBeCloseTo(0.54 + Math.sqrt(0.016), 12);
  });
  it("widens by the distance to another estimate it must reach where that is the larger gap, and ignores one nearer than the median", () => {
    // reach 0.2: gap 0.3; sides 0.1 and 0.2 -> sqrt(0.01 + 0.09) and sqrt(0.04 + 0.09)
    const [lo, hi] = aroundEstimate(0.5, 0.4, 0.5, 0.7, 0.2);
    expect(lo).toBeCloseTo(0.5 - Math.sqrt(0.1), 12);
    expect(hi).toBeCloseTo(0.5 + Math.sqrt(0.13), 12);
    expect(aroundEstimate(0.54, 0.47, 0.5, 0.62, 0.52)).toEqual(aroundEstimate(0.54, 0.47, 0.5, 0.62));
  });
});

/**
 * A world with a surrogate of known noise: item i has a latent class z_i, the surrogate says
 * pi_i = (1 - a) onehot(z_i) + a / C, and the truth is drawn from pi_i, so pi is calibrated.
 * The clustering follows z with some mistakes; `labeled` items are a uniform sample.
 */
function noisyWorld(seed: number, n = 400, classes = 4, noise = 0.5, labeledCount = 40) {
  const random = Random.from(seed, "world");
  const proba = new Float32Array(n * classes);
  const truth = new Int32Array(n);
  const assignments = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const z = random.int(classes);
    for (let y = 0; y < classes; y++) proba[i * classes + y] = (y === z ? 1 - noise : 0) + noise / classes;
    truth[i] = random.categorical(proba, i * classes, classes);
    assignments[i] = random.next() < 0.8 ? z : random.int(classes);
  }
  const order = random.shuffle(Int32Array.from({ length: n }, (_, i) => i));
  const rows = order.slice(0, labeledCount).sort();
  const unlabeled = order.slice(labeledCount).sort();
  const unlabeledProba = new Float32Array(unlabeled.length * classes);
  unlabeled.forEach((r, i) => unlabeledProba.set(proba.subarray(r * classes, (r + 1) * classes), i * classes));
  const input: EstimatorInput = {
    n,
    numClasses: classes,
    labeled: { rows, labels: Int32Array.from(rows, (r) => truth[r]) },
    unlabeled,
    proba: unlabeledProba,
    draws: [],
  };
  const clustering: TestClustering = { name: "c", k: classes, assignments };
  return { input, clustering, truth: metricsFromTable(contingency(truth, assignments)) };
}

describe("bootstrap intervals", () => {
  it("cover the truth at about the nominal 90% with a calibrated noisy surrogate, over many seeds", () => {
    const seeds = 150;
    const covered = { nmi: 0, ari: 0, acc: 0 };
    for (let seed = 0; seed < seeds; seed++) {
      const { input, clustering, truth } = noisyWorld(seed);
      const report = bootstrapIntervals(input, [clustering], argmaxEstimator, { seed, draws: 200, level: 0.9 });
      for (const k of ["nmi", "ari", "acc"] as const) {
        const [lo, hi] = report.interval.c[k];
        if (truth[k] >= lo && truth[k] <= hi) covered[k]++;
      }
    }
    // 90% nominal; 150 seeds give a standard error of 2.4 points
    for (const k of ["nmi", "ari", "acc"] as const) {
      expect(covered[k] / seeds).toBeGreaterThanOrEqual(0.83);
      expect(covered[k] / seeds).toBeLessThanOrEqual(0.97);
    }
  });

  it("use the same draws for every clustering: P(best) sums to 1 and favours the better clustering", () => {
    const { input, clustering } = noisyWorld(3);
    const scrambled: TestClustering = { name: "scrambled", k: 4, assignments: Random.from(1, "x").shuffle(Int32Array.from(clustering.assignments)) };
    const report = bootstrapIntervals(input, [clustering, scrambled], argmaxEstimator, { seed: 1, draws: 100 });
    expect(report.pBest.nmi.c + report.pBest.nmi.scrambled).toBeCloseTo(1, 12);
    expect(report.pBest.nmi.c).toBe(1);
    expect(report.interval.scrambled.nmi[1]).toBeLessThan(report.interval.c.nmi[0]);
  });

  it("narrow as the labeled set grows (labels-only estimator)", () => {
    const small = noisyWorld(5, 400, 4, 0.5, 40);
    const large = noisyWorld(5, 400, 4, 0.5, 320);
    const width = (w: ReturnType<typeof noisyWorld>) => {
      const [lo, hi] = bootstrapIntervals(w.input, [w.clustering], labelsOnlyEstimator, { seed: 2, draws: 200 }).interval.c.nmi;
      return hi - lo;
    };
    expect(width(large)).toBeLessThan(width(small) / 2);
  });

  it("hold each side's spread at least the level's normal quantile times the estimator's spread floor, and leave a wider one", () => {
    const { input, clustering } = noisyWorld(7, 400, 4, 0.5, 320);
    const se = (value: number) => ({ nmi: value, ami: value, ari: value, acc: value, vMeasure: value, fmi: value, ap: value });
    const plain = bootstrapIntervals(input, [clustering], labelsOnlyEstimator, { seed: 4, draws: 200 }).interval.c.nmi;
    const floored = (value: number) => bootstrapIntervals(input, [clustering], { ...labelsOnlyEstimator, intervalSpreadFloor: () => se(value) }, { seed: 4, draws: 200 }).interval.c.nmi;
    const wide = floored(0.05);
    expect(wide[1] - wide[0]).toBeCloseTo(2 * 1.644854 * 0.05, 5);
    expect(wide[0]).toBeLessThan(plain[0]);
    expect(wide[1]).toBeGreaterThan(plain[1]);
    expect(floored(1e-6)).toEqual(plain);
  });
});

describe("drawInput", () => {
  it("samples pseudo-labels only for an estimator that reads them, and draws the same multiplicities either way", () => {
    const { input } = noisyWorld(3);
    const sampled = new Random(9);
    const skipped = new Random(9);
    const withLabels = [drawInput(input, sampled, argmaxEstimator), drawInput(input, sampled, argmaxEstimator)];
    const without = [drawInput(input, skipped, { usesSurrogate: true }), drawInput(input, skipped, { usesSurrogate: true })];
    expect(withLabels[0].pseudoLabels).toHaveLength(input.unlabeled.length);
    expect(without[0].pseudoLabels).toBeUndefined();
    // the second draw's multiplicities follow the first draw's pseudo-labels in the stream
    expect(without.map((d) => Array.from(d.multiplicity!))).toEqual(withLabels.map((d) => Array.from(d.multiplicity!)));
    expect(skipped.next()).toBe(sampled.next());
  });
});

