import { describe, expect, it } from "vitest";
import { ari, contingency, fowlkesMallows, METRIC_KEYS, metricsFromTable, type MetricKey } from "@/lib/metrics";
import type { IntervalReport } from "../method/intervals";
import { Random } from "../../random/named-streams";
import { drawPairs, drawUniformPairs, pairKey, recordPairDraws, recordPairGroups } from "./pair-designs";
import {
  drawingModelsInformative,
  modelsOfDrawingRounds,
  pairCountIntervals,
  pairCountMetrics,
  pairCounts,
  pairPpiEstimate,
  stagesByRound,
  type PairStage,
} from "./pair-count-ppi";

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
      uniform: true,
      a: Int32Array.from(draws, (d) => d.row),
      b: Int32Array.from(draws, (d) => d.rowB),
      same: Uint8Array.from(draws, (d) => (truth[d.row] === truth[d.rowB] ? 1 : 0)),
      q: Float64Array.from(draws, (d) => d.q),
      models: p ? [p] : [],
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
      const ht = pairCounts(clusters, [seed, { ...second, models: [predictions(0)] }]).s;
      sumPpi += ppi;
      squaredPpi += (ppi - t.s) ** 2;
      squaredHt += (ht - t.s) ** 2;
    }
    expect(Math.abs(sumPpi / reps - t.s) / t.s).toBeLessThan(0.02);
    expect(squaredPpi).toBeLessThan(squaredHt / 2);
  });

  it("carry no sampling variance with a perfect model, and the model's variance otherwise", () => {
    const perfect = pairCounts(clusters, stages(new Random(4), 60, predictions(1)));
    expect(perfect.varS).toBeCloseTo(0, 6);
    expect(perfect.varA).toBeCloseTo(0, 6);
    // a weak model: the stated variance of s is the spread of s over repeated draws (within 25%)
    const random = new Random(5);
    const estimates: number[] = [];
    let stated = 0;
    const reps = 600;
    for (let r = 0; r < reps; r++) {
      const counts = pairCounts(clusters, stages(random, 40, predictions(0.6)));
      estimates.push(counts.s);
      stated += counts.varS / reps;
    }
    const mean = estimates.reduce((x, y) => x + y, 0) / reps;
    const spread = estimates.reduce((x, y) => x + (y - mean) ** 2, 0) / (reps - 1);
    expect(stated / spread).toBeGreaterThan(0.75);
    expect(stated / spread).toBeLessThan(1.25);
  });
});

describe("prediction-powered pair counts of a stratified stage", () => {
  /**
   * The seed stage, then a stage of 20 uniform pairs and 20 more within the clusters: given the u
   * uniform pairs that fell within, its within pairs are a uniform sample of the within pairs not
   * taken before it (q = (u + 20) / their count) and its other pairs one of the pairs across.
   */
  function stratifiedRun(random: Random, proba: Float32Array): PairStage[] {
    const [seed] = stages(random, 40, null);
    const taken = new Set(Array.from(seed.a.keys(), (t) => pairKey(seed.a[t], seed.b[t])));
    const together = (i: number, j: number) => clusters[i] === clusters[j];
    const withinLeft = trueCounts().b - Array.from(seed.a.keys()).filter((t) => together(seed.a[t], seed.b[t])).length;
    const pairsLeft = total - taken.size;
    const uniform = drawUniformPairs(n, 20, random, taken).map((d) => [d.row, d.rowB]);
    for (const [i, j] of uniform) taken.add(pairKey(i, j));
    const within: number[][] = [];
    while (within.length < 20) {
      const [i, j] = [random.int(n), random.int(n)];
      if (i === j || !together(i, j) || taken.has(pairKey(i, j))) continue;
      taken.add(pairKey(i, j));
      within.push([Math.min(i, j), Math.max(i, j)]);
    }
    const pairs = [...uniform, ...within];
    const stratum = Uint8Array.from(pairs, ([i, j]) => (together(i, j) ? 1 : 0));
    const u = stratum.reduce((x, y) => x + y, 0) - 20;
    const second: PairStage = {
      uniform: true,
      a: Int32Array.from(pairs, (p) => p[0]),
      b: Int32Array.from(pairs, (p) => p[1]),
      same: Uint8Array.from(pairs, ([i, j]) => (truth[i] === truth[j] ? 1 : 0)),
      q: Float64Array.from(stratum, (h) => (h ? (u + 20) / withinLeft : (20 - u) / (pairsLeft - withinLeft))),
      models: [proba],
      k,
      stratum,
    };
    return [seed, second];
  }

  it("are unbiased, and state the variance of a and s summed over the strata", () => {
    const t = trueCounts();
    const random = new Random(9);
    const reps = 600;
    const drawn = { a: [] as number[], s: [] as number[] };
    const stated = { a: 0, s: 0, pooledA: 0 };
    for (let r = 0; r < reps; r++) {
      const run = stratifiedRun(random, predictions(0.6));
      const counts = pairCounts(clusters, run);
      drawn.a.push(counts.a);
      drawn.s.push(counts.s);
      stated.a += counts.varA / reps;
      stated.s += counts.varS / reps;
      // the same stage read as one stratum: its variance counts the strata's different weights as spread, and overstates
      stated.pooledA += pairCounts(clusters, [run[0], { ...run[1], stratum: undefined }]).varA / reps;
    }
    const mean = (x: number[]) => x.reduce((u, v) => u + v, 0) / x.length;
    const spread = (x: number[]) => x.reduce((u, v) => u + (v - mean(x)) ** 2, 0) / (x.length - 1);
    expect(Math.abs(mean(drawn.a) - t.a) / t.a).toBeLessThan(0.02);
    expect(Math.abs(mean(drawn.s) - t.s) / t.s).toBeLessThan(0.02);
    for (const key of ["a", "s"] as const) {
      expect(stated[key] / spread(drawn[key])).toBeGreaterThan(0.75);
      expect(stated[key] / spread(drawn[key])).toBeLessThan(1.25);
    }
    expect(stated.pooledA / spread(drawn.a)).toBeGreaterThan(1.1);
  });
});

describe("prediction-powered pair counts of a mixed stage", () => {
  /**
   * The seed stage, then one stage of the uncertain design, half uniform: its own pairs are those
   * of a uniform pool whose P_ij is nearest 0.5, which with this model are mostly "same" pairs.
   */
  function uncertainRun(random: Random, proba: Float32Array) {
    const seed = recordPairDraws(drawUniformPairs(n, 40, random), "uniform", 0, 0);
    const taken = new Set(seed.map((d) => pairKey(d.row, d.rowB)));
    const stage1 = recordPairGroups(drawPairs("uncertain", n, 40, random, taken, { proba, k }, { uniformShare: 0.5, candidatesPerPair: 5 }), 1, seed.length);
    const draws = [...seed, ...stage1];
    const pairs = {
      a: Int32Array.from(draws, (d) => d.row),
      b: Int32Array.from(draws, (d) => d.rowB),
      same: Uint8Array.from(draws, (d) => (truth[d.row] === truth[d.rowB] ? 1 : 0)),
    };
    return { pairs, draws };
  }

  it("split it into the design's own pairs, which only count as known, and its uniform pairs, which correct: unbiased", () => {
    const t = trueCounts();
    const proba = predictions(0.6);
    const models = new Map([[1, [proba]]]);
    const random = new Random(6);
    let sum = 0;
    let naive = 0;
    let ownSame = 0;
    const reps = 400;
    for (let r = 0; r < reps; r++) {
      const { pairs, draws } = uncertainRun(random, proba);
      const stages = stagesByRound(pairs, draws, models, k);
      expect(stages.map((s) => [s.uniform, s.a.length, s.models.length])).toEqual([
        [true, 40, 0],
        [false, 20, 0],
        [true, 20, 1],
      ]);
      sum += pairCounts(clusters, stages).s / reps;
      ownSame += stages[1].same.reduce((x, y) => x + y, 0) / (20 * reps);
      // the whole stage taken as uniform draws with the q the design records: biased
      naive += pairCounts(clusters, stagesByRound(pairs, draws.map((d) => ({ ...d, design: "uniform", score: null })), models, k)).s / reps;
    }
    expect(ownSame).toBeGreaterThan(0.5);
    expect(Math.abs(sum - t.s) / t.s).toBeLessThan(0.02);
    expect(Math.abs(naive - t.s) / t.s).toBeGreaterThan(0.1);
  });
});

describe("stagesByRound", () => {
  it("groups the answered pairs by draw round, each with the p(.|x) of the round before and q scaled by its answered share", () => {
    const pairs = { a: Int32Array.of(0, 1, 2), b: Int32Array.of(5, 6, 7), same: Uint8Array.of(1, 0, 1) };
    const draws = [
      { round: 0, q: 0.1, design: "uniform", score: null },
      { round: 1, q: 0.2, design: "uniform", score: null },
      { round: 0, q: 0.1, design: "uniform", score: null },
    ];
    const p0 = predictions(0.5);
    const p1 = predictions(0.9);
    const stages = stagesByRound(pairs, draws, modelsOfDrawingRounds([[p0], [p1]]), k, new Map([[1, 0.5]]));
    expect(stages).toHaveLength(2);
    expect([...stages[0].a]).toEqual([0, 2]);
    expect([...stages[0].same]).toEqual([1, 1]);
    expect(stages[0].models).toEqual([]);
    expect([...stages[1].b]).toEqual([6]);
    // half of stage 1's drawn pairs answered: its q is halved
    expect([...stages[1].q]).toEqual([0.1]);
    expect(stages[1].models).toEqual([p0]);
  });
});

describe("pairPpiEstimate", () => {
  const argmaxLabels = Int32Array.from({ length: n }, (_, i) => (i % 7 === 0 ? (truth[i] + 1) % k : truth[i]));
  const argmax = metricsFromTable(contingency(argmaxLabels, clusters));

  it("corrects ARI and FMI by the counts, NMI, AMI and V-measure by the FMI gap, and keeps ACC and AP", () => {
    const counts = pairCounts(clusters, stages(new Random(6), 60, predictions(1)));
    const { estimate, interval } = pairPpiEstimate(counts, argmax, null);
    const exact = pairCountMetrics(counts);
    expect(estimate.fmi).toBeCloseTo(exact.fmi, 9);
    expect(estimate.ari).toBeCloseTo(exact.ari, 9);
    expect(estimate.nmi).toBeCloseTo(argmax.nmi + exact.fmi - argmax.fmi, 9);
    expect(estimate.ami).toBeCloseTo(argmax.ami + exact.fmi - argmax.fmi, 9);
    expect(estimate.acc).toBe(argmax.acc);
    expect(interval.acc).toEqual([argmax.acc, argmax.acc]);
    // no sampling variance: the interval runs from the corrected value to the argmax one
    expect(interval.fmi[0]).toBeCloseTo(Math.min(exact.fmi, argmax.fmi), 9);
    expect(interval.fmi[1]).toBeCloseTo(Math.max(exact.fmi, argmax.fmi), 9);
  });

  it("tuned: takes the whole correction when it has no sampling variance, and none when it is all noise", () => {
    const exact = pairCounts(clusters, stages(new Random(6), 60, predictions(1)));
    const full = pairPpiEstimate(exact, argmax, null, 0.9, "full");
    const tuned = pairPpiEstimate(exact, argmax, null, 0.9, "tuned");
    for (const key of ["nmi", "ami", "vMeasure", "ari", "fmi"] as const) expect(tuned.estimate[key]).toBeCloseTo(full.estimate[key], 9);
    // a gap of half a standard error (se of FMI = sqrt(varA / (b s))): w = max(0, D^2 - se^2) / D^2 = 0, argmax's values
    const gap = pairCountMetrics(exact).fmi - argmax.fmi;
    const noisy = { ...exact, varS: 0, covAS: 0, varA: (2 * gap * Math.sqrt(exact.b * exact.s)) ** 2 };
    const shrunk = pairPpiEstimate(noisy, argmax, null, 0.9, "tuned");
    expect(shrunk.estimate.fmi).toBe(argmax.fmi);
    expect(shrunk.estimate.nmi).toBe(argmax.nmi);
    // the interval is the full correction's either way
    expect(shrunk.interval.fmi).toEqual(pairPpiEstimate(noisy, argmax, null, 0.9, "full").interval.fmi);
  });

  it("gives FMI intervals that hold the truth at about their level with a weak model", () => {
    const trueFmi = fowlkesMallows(truth, clusters);
    const random = new Random(7);
    let held = 0;
    const reps = 400;
    for (let r = 0; r < reps; r++) {
      // argmax's FMI set to the corrected one: the interval is the delta-method one alone
      const counts = pairCounts(clusters, stages(random, 40, predictions(0.6)));
      const { interval } = pairPpiEstimate(counts, { ...argmax, fmi: pairCountMetrics(counts).fmi }, null, 0.9);
      if (trueFmi >= interval.fmi[0] && trueFmi <= interval.fmi[1]) held++;
    }
    expect(held / reps).toBeGreaterThan(0.84);
    expect(held / reps).toBeLessThan(0.97);
  });
});

describe("pairCountIntervals", () => {
  const argmaxLabels = Int32Array.from({ length: n }, (_, i) => (i % 7 === 0 ? (truth[i] + 1) % k : truth[i]));
  const estimate = { c: metricsFromTable(contingency(argmaxLabels, clusters)) };
  const wide = Object.fromEntries(METRIC_KEYS.map((m) => [m, [0, 1] as [number, number]])) as Record<MetricKey, [number, number]>;
  const report: IntervalReport = { interval: { c: wide }, pBest: {} as IntervalReport["pBest"], draws: 20, level: 0.9 };
  const clusterings = [{ name: "c", assignments: clusters, k: 3 }];
  // items of one class never share a cluster id of this model (class c is i = c + 4t, its id t mod 4)
  const knowsNothing = Float32Array.from({ length: n * k }, (_, x) => (x % k === Math.floor(Math.floor(x / k) / 4) % k ? 1 : 0));

  it("reads whether the drawing models predict the answers better than chance", () => {
    expect(drawingModelsInformative(stages(new Random(8), 200, predictions(0.6)))).toBe(true);
    expect(drawingModelsInformative(stages(new Random(8), 200, knowsNothing))).toBe(false);
    // no stage with a model: nothing to read
    expect(drawingModelsInformative(stages(new Random(8), 200, null))).toBeNull();
  });

  it("give NMI, AMI and V-measure their whole range where the models know nothing, and keep ARI's and FMI's", () => {
    const informed = stages(new Random(9), 200, predictions(0.6));
    const counted = (s: PairStage[]) => pairPpiEstimate(pairCounts(clusters, s), estimate.c, wide, 0.9).interval;
    expect(pairCountIntervals(report, estimate, clusterings, informed).interval.c).toEqual(counted(informed));
    expect(counted(informed).nmi).not.toEqual([0, 1]);
    const blind = stages(new Random(9), 200, knowsNothing);
    const interval = pairCountIntervals(report, estimate, clusterings, blind).interval.c;
    expect(interval.nmi).toEqual([0, 1]);
    expect(interval.vMeasure).toEqual([0, 1]);
    expect(interval.ami).toEqual([-1, 1]);
    for (const key of ["ari", "fmi"] as const) expect(interval[key]).toEqual(counted(blind)[key]);
  });
});
