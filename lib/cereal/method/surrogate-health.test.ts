import { describe, expect, it } from "vitest";
import { denseTable, METRIC_KEYS, metricsFromTable, type MetricValues } from "@/lib/metrics";
import type { Draw } from "./designs";
import {
  blendedMetrics,
  guardedBlendCalibratedEstimator,
  guardedBlendEstimator,
  guardedDiffuseAlwaysEstimator,
  guardedEstimator,
  guardedMetrics,
  guardedNoFloorEstimator,
  guardedNoPoolFloorEstimator,
  guardedJackknifedMeanEstimator,
  guardedNoGapEstimator,
  guardedNoOverconfidenceEstimator,
  guardedOverconfident15Estimator,
  guardedNoReachEstimator,
  guardedPickEstimator,
  guardedPlainPpiEstimator,
  guardedTable,
  OVERCONFIDENT_GAP_Z,
} from "./estimators-guarded";
import { jackknife, jackknifeMetrics } from "./jackknife";
import type { EstimatorInput } from "./estimators";
import { softTable } from "./estimators-soft";
import { bootstrapIntervals, normalQuantile } from "./intervals";
import { EMPTY_RECORD, extendRecord } from "./out-of-sample";
import { poolNoiseSe } from "./pool-noise";
import { ppiTable } from "./ppi";
import type { TestClustering } from "./problem";
import { guardReading, readsOverconfident, surrogateHealth } from "./surrogate-health";

const draw = (row: number, q: number, round: number, order: number): Draw => ({ row, design: "uniform", score: null, q, order, round });
const clustering: TestClustering = { name: "c", k: 2, assignments: Int32Array.from([0, 1, 0, 1, 0, 1]) };

/** seed rows 0, 1; batch 1 = rows 2, 3 predicted by round 0's model as [p(2), p(3)] */
function setup(p2: number[], p3: number[]): EstimatorInput {
  const record = extendRecord(EMPTY_RECORD, {
    round: 1,
    pool: Int32Array.from([2, 3, 4, 5]),
    rawProba: Float32Array.from([...p2, ...p3, 0.5, 0.5, 0.5, 0.5]),
    calibratedProba: Float32Array.from([...p2, ...p3, 0.5, 0.5, 0.5, 0.5]),
    temperature: 1,
    numClasses: 2,
    clusterings: [clustering],
    drawnPositions: [0, 1],
  });
  return {
    n: 6,
    numClasses: 2,
    labeled: { rows: Int32Array.from([0, 1, 2, 3]), labels: Int32Array.from([0, 1, 0, 1]) },
    unlabeled: Int32Array.from([4, 5]),
    proba: Float32Array.from([0.6, 0.4, 0.3, 0.7]),
    draws: [draw(0, 1 / 3, 0, 0), draw(1, 1 / 3, 0, 1), draw(2, 0.5, 1, 2), draw(3, 0.5, 1, 3)],
    outOfSample: record,
  };
}

describe("surrogate health and the guarded estimator", () => {
  it("measures the previous model on the new batch, out of sample", () => {
    const good = setup([0.9, 0.1], [0.2, 0.8]);
    const h = surrogateHealth(good.labeled, good.draws, good.outOfSample);
    expect(h.latestAccuracy).toBe(1);
    expect(h.latestCount).toBe(2);
    expect(h.recentConfidence).toBeCloseTo(0.85, 6);
    expect(h.weak).toBe(false);
    const bad = setup([0.1, 0.9], [0.8, 0.2]);
    const w = surrogateHealth(bad.labeled, bad.draws, bad.outOfSample);
    expect(w.latestAccuracy).toBe(0);
    expect(w.weak).toBe(true);
    // round 0: nothing predicted out of sample yet
    expect(surrogateHealth(good.labeled, good.draws.slice(0, 2), undefined).latestAccuracy).toBeNull();
  });

  it("guarded-pick: the soft table when healthy, the ppi table when weak, ppi in bootstrap draws", () => {
    const good = setup([0.9, 0.1], [0.2, 0.8]);
    expect(denseTable(guardedTable(good, clustering))).toEqual(denseTable(softTable(good, clustering)));
    const bad = setup([0.1, 0.9], [0.8, 0.2]);
    const ppi = denseTable(ppiTable(bad, clustering, { pseudo: "soft", lambda: "tuned" }));
    expect(denseTable(guardedTable(bad, clustering))).toEqual(ppi);
    const draw = { ...good, multiplicity: Int32Array.from([1, 1, 1, 1]) };
    expect(denseTable(guardedTable(draw, clustering))).toEqual(denseTable(ppiTable(draw, clustering, { pseudo: "soft", lambda: "tuned" })));
    // what the next draw reads (round.ts uniformWhileLabelsCarry): the estimate rests on the labels where it is the ppi table
    expect(guardedPickEstimator.restsOnLabels!(good, clustering)).toBe(false);
    expect(guardedPickEstimator.restsOnLabels!(bad, clustering)).toBe(true);
  });

  it("guarded-pick metrics: the soft table's when healthy, the jackknifed ppi table's when weak", () => {
    const good = setup([0.9, 0.1], [0.2, 0.8]);
    expect(guardedPickEstimator.metrics!(good, clustering)).toEqual(metricsFromTable(softTable(good, clustering)));
    const bad = setup([0.1, 0.9], [0.8, 0.2]);
    const ppi = (input: EstimatorInput) => ppiTable(input, clustering, { pseudo: "soft", lambda: "tuned" });
    const weak = guardedPickEstimator.metrics!(bad, clustering);
    expect(weak).toEqual(jackknifeMetrics(bad, ppi));
  });

  it("guarded-pick: its interval reaches the soft table's estimate where it reports a ppi table, nothing more where it reports the soft one", () => {
    const good = setup([0.9, 0.1], [0.2, 0.8]);
    expect(guardedPickEstimator.intervalReach!(good, clustering)).toBeNull();
    const bad = setup([0.1, 0.9], [0.8, 0.2]);
    expect(guardedPickEstimator.intervalReach!(bad, clustering)).toEqual(metricsFromTable(softTable(bad, clustering)));
    expect(guardedNoReachEstimator.metrics!(bad, clustering)).toEqual(guardedPickEstimator.metrics!(bad, clustering));
    expect(guardedNoReachEstimator.intervalReach).toBeUndefined();
    // the same draws: the interval holds guarded-no-reach's and reaches the soft estimate
    const wide = bootstrapIntervals(bad, [clustering], guardedPickEstimator, { seed: 5, draws: 50 }).interval.c.nmi;
    const plain = bootstrapIntervals(bad, [clustering], guardedNoReachEstimator, { seed: 5, draws: 50 }).interval.c.nmi;
    const soft = metricsFromTable(softTable(bad, clustering)).nmi;
    expect(wide[0]).toBeLessThanOrEqual(Math.min(plain[0], soft));
    expect(wide[1]).toBeGreaterThanOrEqual(Math.max(plain[1], soft));
    expect(wide[1] - wide[0]).toBeGreaterThan(plain[1] - plain[0]);
  });
});

/** seed rows 0-1, then batches of 40 rows each, batch b predicted by round b - 1's model as `predicted`, right on the rows `right` says */
function batchesOf(batches: { predicted: [number, number]; right: (i: number) => boolean }[]): EstimatorInput {
  const n = 2 + 40 * batches.length;
  const rows = Int32Array.from({ length: n }, (_, i) => i);
  const truth = Int32Array.from(rows, (i) => (i < 2 ? i : batches[Math.floor((i - 2) / 40)].right((i - 2) % 40) ? 0 : 1));
  const clusters: TestClustering = { name: "c", k: 2, assignments: Int32Array.from(rows, (i) => i % 2) };
  let outOfSample = EMPTY_RECORD;
  batches.forEach(({ predicted }, b) => {
    const pool = rows.slice(2 + 40 * b);
    const proba = Float32Array.from({ length: pool.length * 2 }, (_, j) => predicted[j % 2]);
    const drawnPositions = Array.from({ length: 40 }, (_, j) => j);
    outOfSample = extendRecord(outOfSample, { round: b + 1, pool, rawProba: proba, calibratedProba: proba, temperature: 1, numClasses: 2, clusterings: [clusters], drawnPositions });
  });
  return {
    n,
    numClasses: 2,
    labeled: { rows, labels: truth },
    unlabeled: new Int32Array(0),
    proba: null,
    draws: Array.from(rows, (row, i) => draw(row, i < 2 ? 2 / n : 40 / (n - 2 - 40 * Math.floor((i - 2) / 40)), i < 2 ? 0 : 1 + Math.floor((i - 2) / 40), i)),
    outOfSample,
  };
}
const batchOf = (predicted: [number, number], right: (i: number) => boolean) => batchesOf([{ predicted, right }]);

/**
 * Each row's class its cluster's (rows i % 2), so the truth's NMI is 1: a seed of 2 rows and three labeled batches of 40, each
 * predicted by the model before it at `confidence` on the row's class (always right), and 40 rows left unlabeled with pi
 * `poolConfidence` on theirs.
 */
function clusterAligned(confidence: number, poolConfidence: number): { input: EstimatorInput; clusters: TestClustering } {
  const n = 2 + 40 * 4;
  const m = 2 + 40 * 3;
  const rows = Int32Array.from({ length: n }, (_, i) => i);
  const clusters: TestClustering = { name: "c", k: 2, assignments: Int32Array.from(rows, (i) => i % 2) };
  const aligned = (of: Int32Array, p: number) => Float32Array.from({ length: of.length * 2 }, (_, j) => ((j % 2) === of[j >> 1] % 2 ? p : 1 - p));
  let outOfSample = EMPTY_RECORD;
  for (let b = 0; b < 3; b++) {
    const pool = rows.slice(2 + 40 * b);
    const proba = aligned(pool, confidence);
    const drawnPositions = Array.from({ length: 40 }, (_, j) => j);
    outOfSample = extendRecord(outOfSample, { round: b + 1, pool, rawProba: proba, calibratedProba: proba, temperature: 1, numClasses: 2, clusterings: [clusters], drawnPositions });
  }
  const unlabeled = rows.slice(m);
  const input: EstimatorInput = {
    n,
    numClasses: 2,
    labeled: { rows: rows.slice(0, m), labels: Int32Array.from(rows.slice(0, m), (i) => i % 2) },
    unlabeled,
    proba: aligned(unlabeled, poolConfidence),
    draws: Array.from(rows.slice(0, m), (row, i) => draw(row, i < 2 ? 2 / n : 40 / (n - 2 - 40 * Math.floor((i - 2) / 40)), i < 2 ? 0 : 1 + Math.floor((i - 2) / 40), i)),
    outOfSample,
  };
  return { input, clusters };
}
/** four batches (by default calibrated: pi 0.8 : 0.2, right on 32 of 40), the first three labeled (122 rows with the seed), the
 * fourth's 40 rows left unlabeled with pi `pool` (by default the batches' pi); and the two-cluster clustering over them */
function threeOfFourLabeled(
  batch: { predicted: [number, number]; right: (i: number) => boolean } = { predicted: [0.8, 0.2], right: (i) => i % 5 !== 0 },
  pool: [number, number] = batch.predicted,
): { input: EstimatorInput; clusters: TestClustering } {
  const all = batchesOf([batch, batch, batch, batch]);
  const m = 2 + 3 * 40;
  const input: EstimatorInput = {
    ...all,
    labeled: { rows: all.labeled.rows.slice(0, m), labels: all.labeled.labels.slice(0, m) },
    draws: all.draws.slice(0, m),
    unlabeled: all.labeled.rows.slice(m),
    proba: Float32Array.from({ length: 2 * (all.n - m) }, (_, j) => pool[j % 2]),
  };
  return { input, clusters: { name: "c", k: 2, assignments: Int32Array.from({ length: input.n }, (_, i) => i % 2) } };
}

describe("surrogate health: calibration", () => {
  it("flags a diffuse pi (underconfident), not a calibrated or an overconfident one", () => {
    // right on every row at confidence 0.6: 40 points underconfident
    const diffuse = batchOf([0.6, 0.4], () => true);
    const d = surrogateHealth(diffuse.labeled, diffuse.draws, diffuse.outOfSample);
    expect(d.recentAccuracy).toBe(1);
    expect(d.weak).toBe(false);
    expect(d.recentUnderconfidence!).toBeCloseTo(0.4, 6);
    expect(d.diffuse).toBe(true);
    // right on 32 of 40 at 0.8: calibrated
    const calibrated = batchOf([0.8, 0.2], (i) => i % 5 !== 0);
    const c = surrogateHealth(calibrated.labeled, calibrated.draws, calibrated.outOfSample);
    expect(c.recentUnderconfidence!).toBeCloseTo(0, 6);
    expect(c.diffuse).toBe(false);
    expect(guardReading(calibrated.labeled, calibrated.draws, calibrated.outOfSample).overconfident).toBe(false);
    // right on 32 of 40 at 0.99: overconfident, not diffuse
    const sharp = batchOf([0.99, 0.01], (i) => i % 5 !== 0);
    const o = surrogateHealth(sharp.labeled, sharp.draws, sharp.outOfSample);
    expect(o.recentUnderconfidence!).toBeCloseTo(-0.19, 6);
    expect(o.diffuse).toBe(false);
    expect(guardReading(sharp.labeled, sharp.draws, sharp.outOfSample, { overconfidentGap: 0.15 }).overconfident).toBe(true);
    expect(guardReading(sharp.labeled, sharp.draws, sharp.outOfSample).overconfident).toBe(false);
    expect(readsOverconfident({ count: 40, gap: -0.26 })).toBe(true);
    expect(readsOverconfident({ count: 19, gap: -0.5 })).toBe(false);
  });

  it("guarded's floor: the ppi draws' spread no narrower than the ppi table's jackknife standard error allows, on the same draws", () => {
    const { input, clusters } = threeOfFourLabeled();
    const se = jackknife(input, (i) => ppiTable(i, clusters, { pseudo: "soft", lambda: "tuned" })).se!;
    expect(guardedEstimator.intervalSpreadFloor!(input, clusters)).toEqual(se);
    expect(guardedJackknifedMeanEstimator.intervalSpreadFloor!(input, clusters)).toEqual(se);
    expect(guardedNoFloorEstimator.intervalSpreadFloor).toBeUndefined();
    // guarded-no-floor is the jackknifed mean without the floor: the same estimate as guarded-jackknifed-mean, so their draws compare
    expect(guardedNoFloorEstimator.metrics!(input, clusters)).toEqual(guardedJackknifedMeanEstimator.metrics!(input, clusters));
    const floored = bootstrapIntervals(input, [clusters], guardedJackknifedMeanEstimator, { seed: 3, draws: 100 }).interval.c;
    const plain = bootstrapIntervals(input, [clusters], guardedNoFloorEstimator, { seed: 3, draws: 100 }).interval.c;
    const estimate = guardedJackknifedMeanEstimator.metrics!(input, clusters);
    const z = normalQuantile(0.95);
    for (const k of ["nmi", "ari", "acc"] as const) {
      expect(floored[k][0]).toBeLessThanOrEqual(plain[k][0]);
      expect(floored[k][1]).toBeGreaterThanOrEqual(plain[k][1]);
      // above the estimate (the lower end may be clamped at the metric's range): at least z standard errors
      expect(floored[k][1] - estimate[k]).toBeGreaterThanOrEqual(z * se[k] - 1e-12);
    }
    // here ACC's draws spread less than its jackknife standard error allows: the floor widened that interval
    expect(floored.acc[1] - floored.acc[0]).toBeGreaterThan(plain.acc[1] - plain.acc[0] + 0.01);
  });

  it("guarded's floor is the larger of the jackknife's standard error and the pool's own noise, metric by metric (guarded-no-pool-floor: the jackknife's alone)", () => {
    const three = threeOfFourLabeled();
    const { clusters } = three;
    const jk = (input: EstimatorInput) => jackknife(input, (i) => ppiTable(i, clusters, { pseudo: "soft", lambda: "tuned" })).se!;
    // calibrated batches: the jackknife's standard error is the larger
    const se = jk(three.input);
    const pool = poolNoiseSe(three.input, clusters, softTable(three.input, clusters));
    const floor = guardedEstimator.intervalSpreadFloor!(three.input, clusters)!;
    for (const k of METRIC_KEYS) expect(floor[k]).toBe(Math.max(se[k], pool[k]!));
    expect(floor.nmi).toBe(se.nmi);
    // batches the earlier models read exactly (pi 1 : 0, every row right): no residual for the jackknife to read, so the pool's noise rules
    const exact = threeOfFourLabeled({ predicted: [1, 0], right: () => true }, [0.98, 0.02]).input;
    const exactFloor = guardedEstimator.intervalSpreadFloor!(exact, clusters)!;
    const exactPool = poolNoiseSe(exact, clusters, softTable(exact, clusters));
    expect(jk(exact).nmi).toBeLessThan(1e-10);
    expect(guardedNoPoolFloorEstimator.intervalSpreadFloor!(exact, clusters)!.nmi).toBe(jk(exact).nmi);
    expect(exactPool.nmi).toBeGreaterThan(0.001);
    expect(exactFloor.nmi).toBe(exactPool.nmi);
    // the same estimate as the default (these 3-of-4-labeled tables' labels are plentiful)
    expect(guardedNoPoolFloorEstimator.metrics!(exact, clusters)).toEqual(guardedEstimator.metrics!(exact, clusters));
  });

  it("guarded: with a label per cell of the table and more, the mean takes the plain ppi metrics (guarded-jackknifed-mean the jackknifed ones)", () => {
    // 122 labels hold one per cell of the 2 x 2 table and more
    const { input, clusters } = threeOfFourLabeled();
    const soft = metricsFromTable(softTable(input, clusters));
    const ppi = jackknife(input, (i) => ppiTable(i, clusters, { pseudo: "soft", lambda: "tuned" }));
    const guarded = guardedEstimator.metrics!(input, clusters);
    for (const key of METRIC_KEYS) expect(guarded[key]).toBeCloseTo((soft[key] + ppi.full[key]) / 2, 12);
    const jackknifed = guardedJackknifedMeanEstimator.metrics!(input, clusters);
    for (const key of METRIC_KEYS) expect(jackknifed[key]).toBeCloseTo((soft[key] + ppi.corrected[key]) / 2, 12);
    // the jackknife moves NMI here, so the two estimators differ
    expect(Math.abs(guarded.nmi - jackknifed.nmi)).toBeGreaterThan(1e-6);
  });

  it("a surrogate once read as overconfident stays so: later calibrated windows do not give the soft table back", () => {
    // right on 28 of 40 at 0.99: 29 points overconfident
    const sharp = { predicted: [0.99, 0.01] as [number, number], right: (i: number) => i % 10 < 7 };
    const calibrated = { predicted: [0.8, 0.2] as [number, number], right: (i: number) => i % 5 !== 0 };
    const input = batchesOf([sharp, calibrated, calibrated, calibrated]);
    const { health, overconfident } = guardReading(input.labeled, input.draws, input.outOfSample);
    expect(health.recentUnderconfidence!).toBeCloseTo(0, 6);
    expect(overconfident).toBe(true);
    const later = batchesOf([calibrated, calibrated, calibrated, calibrated]);
    expect(guardReading(later.labeled, later.draws, later.outOfSample).overconfident).toBe(false);
  });

  it("guarded-no-gap: an overconfident surrogate gets the ppi table however close the tables, the guard before it keeps the soft one", () => {
    const sharp = batchOf([0.99, 0.01], (i) => i % 10 < 7);
    const clusters: TestClustering = { name: "c", k: 2, assignments: Int32Array.from({ length: 42 }, (_, i) => i % 2) };
    const ppi = ppiTable(sharp, clusters, { pseudo: "soft", lambda: "tuned" });
    expect(guardedNoGapEstimator.metrics!(sharp, clusters)).toEqual(metricsFromTable(ppi));
    expect(denseTable(guardedNoGapEstimator.table(sharp, clusters))).toEqual(denseTable(ppi));
    // every row labeled: the soft table is the labels' table; the plentiful rule left out (42 labels are 5 a cell)
    const all = { ...sharp, proba: new Float32Array(0) };
    expect(guardedNoOverconfidenceEstimator.metrics!(all, clusters)).toEqual(metricsFromTable(softTable(all, clusters)));
    const ungated = guardedMetrics(all, clusters, { overconfidentGapZ: null, plentifulPerCell: null, jackknifePpi: false });
    expect(ungated).toEqual(metricsFromTable(ppiTable(all, clusters, { pseudo: "soft", lambda: "tuned" })));
    expect(ungated).not.toEqual(metricsFromTable(softTable(all, clusters)));
    // the default jackknifes the ppi table it reports
    const jackknifed = guardedMetrics(all, clusters, { overconfidentGapZ: null, plentifulPerCell: null });
    expect(jackknifed).toEqual(jackknifeMetrics(all, (i) => ppiTable(i, clusters, { pseudo: "soft", lambda: "tuned" })));
    expect(jackknifed).not.toEqual(ungated);
  });

  it("guarded-pick: an overconfident surrogate loses the soft table only while its NMI is more than z ppi jackknife s.e. from the ppi table's", () => {
    // 42 labeled rows and 100 more, all of which pi puts in class 0 at 0.99
    const sharp = { ...batchOf([0.99, 0.01], (i) => i % 10 < 7), n: 142, unlabeled: Int32Array.from({ length: 100 }, (_, i) => 42 + i) };
    sharp.proba = Float32Array.from({ length: 200 }, (_, j) => (j % 2 === 0 ? 0.99 : 0.01));
    const clusters: TestClustering = { name: "c", k: 2, assignments: Int32Array.from({ length: 142 }, (_, i) => i % 2) };
    const ppiOf = (input: EstimatorInput) => ppiTable(input, clusters, { pseudo: "soft", lambda: "tuned" });
    const soft = metricsFromTable(softTable(sharp, clusters));
    const ppi = jackknife(sharp, ppiOf);
    expect(ppi.full).toEqual(metricsFromTable(ppiOf(sharp)));
    expect(ppi.se!.nmi).toBeGreaterThan(0);
    const z = Math.abs(soft.nmi - ppi.full.nmi) / ppi.se!.nmi;
    expect(z).toBeGreaterThan(0);
    // the plentiful rule left out (42 labels are 5 a cell of 2 x 2), so that the gap alone decides
    const gated = (at: number) => ({ overconfidentGapZ: at, plentifulPerCell: null });
    expect(guardedMetrics(sharp, clusters, gated(0.9 * z))).toEqual(ppi.corrected);
    expect(guardedMetrics(sharp, clusters, { ...gated(0.9 * z), jackknifePpi: false })).toEqual(metricsFromTable(ppiOf(sharp)));
    expect(denseTable(guardedTable(sharp, clusters, gated(0.9 * z)))).toEqual(denseTable(ppiOf(sharp)));
    expect(guardedMetrics(sharp, clusters, gated(1.1 * z))).toEqual(soft);
    expect(denseTable(guardedTable(sharp, clusters, gated(1.1 * z)))).toEqual(denseTable(softTable(sharp, clusters)));
    // a bootstrap draw reads the ppi table whatever the gap
    const draw = { ...sharp, multiplicity: new Int32Array(42).fill(1) };
    expect(denseTable(guardedTable(draw, clusters, gated(1.1 * z)))).toEqual(denseTable(ppiOf(draw)));
    // the default guard is gated at OVERCONFIDENT_GAP_Z: this gap (a third of a standard error) keeps the soft table, where the ungated guard drops it
    expect(z).toBeLessThan(OVERCONFIDENT_GAP_Z);
    expect(guardedMetrics(sharp, clusters, { plentifulPerCell: null })).toEqual(soft);
    expect(guardedMetrics(sharp, clusters, { plentifulPerCell: null, overconfidentGapZ: null })).toEqual(ppi.corrected);
    // read in every round (guarded-gap-always): where the surrogate does not read overconfident (threshold 0.99) the gap alone decides
    const calm = (at: number, always: boolean) => ({ ...gated(at), overconfidentGap: 0.99, gapInEveryRound: always });
    expect(guardedMetrics(sharp, clusters, calm(0.9 * z, false))).toEqual(soft);
    expect(guardedMetrics(sharp, clusters, calm(0.9 * z, true))).toEqual(ppi.corrected);
    expect(guardedMetrics(sharp, clusters, calm(1.1 * z, true))).toEqual(soft);
    // guarded-pick's verdict here is plentiful (42 labels, 5 a cell of 2 x 2 from 20): the ppi table, the labels carrying it
    expect(guardedPickEstimator.metrics!(sharp, clusters)).toEqual(ppi.corrected);
    expect(guardedPickEstimator.restsOnLabels!(sharp, clusters)).toBe(true);
    // the verdict is read once per input, guard and clustering (the estimate and its interval's reach ask for it): the
    // estimate asked again is the very object the gate made, where a copy of the input reads anew
    const guard = gated(1.1 * z);
    const first = guardedMetrics(sharp, clusters, guard);
    expect(guardedMetrics(sharp, clusters, guard)).toBe(first);
    expect(guardedMetrics({ ...sharp }, clusters, guard)).not.toBe(first);
    expect(guardedMetrics({ ...sharp }, clusters, guard)).toEqual(first);
  });

  it("guarded and guarded-blend: the soft and jackknifed ppi metrics weighted by their estimated squared errors or half each, the weak branch left to ppi", () => {
    const metrics = (nmi: number) => Object.fromEntries(METRIC_KEYS.map((k) => [k, k === "nmi" ? nmi : 0.5])) as MetricValues;
    const ppi = (corrected: number, se: number, full = corrected) => ({ full: metrics(full), corrected: metrics(corrected), se: metrics(se) });
    // a gap within one s.e. keeps the soft estimate whole; 2 s.e.: (S - P)^2 = 4 v, b2 = 3 v, w = 1/4; 3 s.e.: w = 1/9
    expect(blendedMetrics(metrics(0.55), ppi(0.5, 0.1), "se").nmi).toBe(0.55);
    expect(blendedMetrics(metrics(0.7), ppi(0.5, 0.1), "se").nmi).toBeCloseTo(0.5 + 0.2 / 4, 12);
    expect(blendedMetrics(metrics(0.2), ppi(0.5, 0.1), "se").nmi).toBeCloseTo(0.5 - 0.3 / 9, 12);
    // equal metrics and no s.e.: the soft estimate; without a jackknife s.e. (under 2 labels) too
    expect(blendedMetrics(metrics(0.5), ppi(0.5, 0), "se").ari).toBe(0.5);
    expect(blendedMetrics(metrics(0.7), { ...ppi(0.5, 0.1), se: null }, "se")).toEqual(metrics(0.7));
    // "half": the mean, however far apart, with or without an s.e.
    expect(blendedMetrics(metrics(0.7), ppi(0.5, 0.01), "half").nmi).toBeCloseTo(0.6, 12);
    expect(blendedMetrics(metrics(0.7), { ...ppi(0.5, 0.1), se: null }, "half").nmi).toBeCloseTo(0.6, 12);
    // "correction": the jackknife's correction (0.1 here) counts as ppi's error too, so a gap of 2 s.e. keeps more of the soft estimate
    const v = 0.1 ** 2 + 0.1 ** 2;
    expect(blendedMetrics(metrics(0.7), ppi(0.5, 0.1, 0.6), "correction").nmi).toBeCloseTo(0.5 + (v / (v + (0.04 - v))) * 0.2, 12);
    // in the guard: the sharp input of the gap test (overconfident, its soft and ppi NMI a third of an s.e. apart) blends them,
    // and so does the plentiful state (42 labels, 5 a cell of 2 x 2); its interval reaches the soft estimate
    const sharp = { ...batchOf([0.99, 0.01], (i) => i % 10 < 7), n: 142, unlabeled: Int32Array.from({ length: 100 }, (_, i) => 42 + i) };
    sharp.proba = Float32Array.from({ length: 200 }, (_, j) => (j % 2 === 0 ? 0.99 : 0.01));
    const clusters: TestClustering = { name: "c", k: 2, assignments: Int32Array.from({ length: 142 }, (_, i) => i % 2) };
    const soft = metricsFromTable(softTable(sharp, clusters));
    const jack = jackknife(sharp, (i) => ppiTable(i, clusters, { pseudo: "soft", lambda: "tuned" }));
    const blended = blendedMetrics(soft, jack, "se");
    expect(guardedMetrics(sharp, clusters, { blend: "se", plentifulPerCell: null })).toEqual(blended);
    expect(guardedBlendEstimator.metrics!(sharp, clusters)).toEqual(blended);
    expect(guardedBlendEstimator.intervalReach!(sharp, clusters)).toEqual(soft);
    // 42 labels hold one per cell of the 2 x 2 table: the default's mean takes the plain ppi metrics, the jackknifed form the corrected ones
    expect(guardedEstimator.metrics!(sharp, clusters).nmi).toBeCloseTo((soft.nmi + jack.full.nmi) / 2, 12);
    expect(guardedJackknifedMeanEstimator.metrics!(sharp, clusters).nmi).toBeCloseTo((soft.nmi + jack.corrected.nmi) / 2, 12);
    expect(blended).not.toEqual(jack.corrected);
    // a weak surrogate (right on 10 of 40) keeps the guard's weak branch: the jackknifed ppi table alone
    const weak = batchOf([0.9, 0.1], (i) => i % 4 === 0);
    const weakClusters: TestClustering = { name: "w", k: 2, assignments: Int32Array.from({ length: weak.n }, (_, i) => i % 2) };
    expect(guardedMetrics(weak, weakClusters, { blend: "se" })).toEqual(guardedMetrics(weak, weakClusters));
    expect(guardedMetrics(weak, weakClusters, { blend: "se" })).toEqual(jackknifeMetrics(weak, (i) => ppiTable(i, weakClusters, { pseudo: "soft", lambda: "tuned" })));
    // the default (the mean) on a healthy surrogate: half the soft table's metrics, half the ppi table's (plain: 4 labels, one a
    // cell of the 2 x 2 table), its interval reaching the soft estimate; the estimate rests on the labels only where the surrogate is weak
    const good = setup([0.9, 0.1], [0.2, 0.8]);
    const goodSoft = metricsFromTable(softTable(good, clustering));
    const goodPpi = metricsFromTable(ppiTable(good, clustering, { pseudo: "soft", lambda: "tuned" }));
    expect(guardedPickEstimator.metrics!(good, clustering)).toEqual(goodSoft);
    for (const k of METRIC_KEYS) expect(guardedEstimator.metrics!(good, clustering)[k]).toBeCloseTo((goodSoft[k] + goodPpi[k]) / 2, 12);
    expect(guardedEstimator.intervalReach!(good, clustering)).toEqual(goodSoft);
    expect(guardedEstimator.restsOnLabels!(good, clustering)).toBe(false);
    expect(guardedEstimator.restsOnLabels!(sharp, clusters)).toBe(false);
    // guarded-blend-calibrated: the default's mean where the surrogate has read overconfident (sharp), the squared-error weights where it never has (good)
    expect(guardedBlendCalibratedEstimator.metrics!(sharp, clusters)).toEqual(guardedEstimator.metrics!(sharp, clusters));
    const goodJack = jackknife(good, (i) => ppiTable(i, clustering, { pseudo: "soft", lambda: "tuned" }));
    expect(guardedBlendCalibratedEstimator.metrics!(good, clustering)).toEqual(blendedMetrics(goodSoft, { ...goodJack, corrected: goodJack.full }, "se"));
    expect(guardedBlendCalibratedEstimator.metrics!(good, clustering).nmi).not.toBeCloseTo(guardedEstimator.metrics!(good, clustering).nmi, 6);
    const bad = setup([0.1, 0.9], [0.8, 0.2]);
    expect(guardedEstimator.restsOnLabels!(bad, clustering)).toBe(true);
    expect(guardedEstimator.metrics!(bad, clustering)).toEqual(guardedPickEstimator.metrics!(bad, clustering));
  });

  it("guarded-overconfident-15: a surrogate 19 points overconfident loses the soft table there, where guarded-pick (25 points) keeps it", () => {
    // 42 labeled rows, right on 32 of 40 at 0.99, and 100 more, all of which pi puts in class 0 at 0.99
    const sharp = { ...batchOf([0.99, 0.01], (i) => i % 5 !== 0), n: 142, unlabeled: Int32Array.from({ length: 100 }, (_, i) => 42 + i) };
    sharp.proba = Float32Array.from({ length: 200 }, (_, j) => (j % 2 === 0 ? 0.99 : 0.01));
    // 5 clusters: 42 labels are fewer than 5 a cell of 2 x 5, so the plentiful rule stays out (the record holds no
    // pseudo-label table for them: the ppi table is the labels' with the out-of-sample correction)
    const clusters: TestClustering = { name: "c5", k: 5, assignments: Int32Array.from({ length: 142 }, (_, i) => i % 5) };
    const ppiOf = (input: EstimatorInput) => ppiTable(input, clusters, { pseudo: "soft", lambda: "tuned" });
    const soft = metricsFromTable(softTable(sharp, clusters));
    const ppi = jackknife(sharp, ppiOf);
    expect(Math.abs(soft.nmi - ppi.full.nmi)).toBeGreaterThan(OVERCONFIDENT_GAP_Z * ppi.se!.nmi);
    expect(guardedPickEstimator.metrics!(sharp, clusters)).toEqual(soft);
    // it reports the ppi table's metrics jackknifed (they differ here), its draws read the ppi table
    expect(ppi.corrected.nmi).not.toBeCloseTo(ppi.full.nmi, 6);
    expect(guardedOverconfident15Estimator.metrics!(sharp, clusters)).toEqual(ppi.corrected);
    expect(denseTable(guardedOverconfident15Estimator.table(sharp, clusters))).toEqual(denseTable(ppiOf(sharp)));
  });

  it("guarded-pick: the ppi table for a clustering once the labels number 5 per cell of its table, however healthy the surrogate", () => {
    // right on 32 of 40 at 0.8: calibrated, neither weak, diffuse nor overconfident; 42 labels, every row (so the soft table is the labels')
    const healthy = { ...batchOf([0.8, 0.2], (i) => i % 5 !== 0), proba: new Float32Array(0) };
    const { health, overconfident } = guardReading(healthy.labeled, healthy.draws, healthy.outOfSample);
    expect([health.weak, health.diffuse, overconfident]).toEqual([false, false, false]);
    const ppi = (clusters: TestClustering) => metricsFromTable(ppiTable(healthy, clusters, { pseudo: "soft", lambda: "tuned" }));
    const soft = (clusters: TestClustering) => metricsFromTable(softTable(healthy, clusters));
    // 2 classes x 2 clusters: 20 labels make 5 a cell, and 42 are given
    const two: TestClustering = { name: "two", k: 2, assignments: Int32Array.from({ length: 42 }, (_, i) => i % 2) };
    expect(ppi(two)).not.toEqual(soft(two));
    // jackknifed, as the weak branch's; guarded-plain-ppi (the default before) reports it as it is
    const corrected = jackknifeMetrics(healthy, (i) => ppiTable(i, two, { pseudo: "soft", lambda: "tuned" }));
    expect(corrected).not.toEqual(ppi(two));
    expect(guardedPickEstimator.metrics!(healthy, two)).toEqual(corrected);
    expect(guardedPlainPpiEstimator.metrics!(healthy, two)).toEqual(ppi(two));
    expect(denseTable(guardedTable(healthy, two))).toEqual(denseTable(ppiTable(healthy, two, { pseudo: "soft", lambda: "tuned" })));
    // 2 classes x 5 clusters would need 50: the soft table still
    const five: TestClustering = { name: "five", k: 5, assignments: Int32Array.from({ length: 42 }, (_, i) => i % 5) };
    expect(guardedPickEstimator.metrics!(healthy, five)).toEqual(soft(five));
    expect(guardedTable(healthy, five, { plentifulPerCell: 4 })).toEqual(ppiTable(healthy, five, { pseudo: "soft", lambda: "tuned" }));
    // the guard before issue #23 keeps the soft table at any number of labels
    expect(guardedNoOverconfidenceEstimator.metrics!(healthy, two)).toEqual(soft(two));
  });

  it("with diffuseZ, an under-confidence within z of its standard errors does not read diffuse", () => {
    // right on 36 of 40 at 0.8: 10 points underconfident, its standard error sqrt(36 0.1^2 + 4 0.9^2) / 40 = 0.047 (z 2.1)
    const mild = batchOf([0.8, 0.2], (i) => i % 10 !== 0);
    const read = (z?: number) => surrogateHealth(mild.labeled, mild.draws, mild.outOfSample, z === undefined ? {} : { diffuseZ: () => z }).diffuse;
    expect(surrogateHealth(mild.labeled, mild.draws, mild.outOfSample).recentUnderconfidence!).toBeCloseTo(0.1, 6);
    expect([read(), read(2), read(2.2), read(3)]).toEqual([true, true, false, false]);
    // the z of the window's place: the one window read here is the first
    const first = (z: (k: number) => number) => surrogateHealth(mild.labeled, mild.draws, mild.outOfSample, { diffuseZ: z }).diffuse;
    expect([first((k) => (k === 1 ? 2 : 9)), first((k) => (k === 1 ? 9 : 2))]).toEqual([true, false]);
    // right on every row at 0.6: 40 points with no spread, diffuse at any z
    const diffuse = batchOf([0.6, 0.4], () => true);
    expect(surrogateHealth(diffuse.labeled, diffuse.draws, diffuse.outOfSample, { diffuseZ: () => 10 }).diffuse).toBe(true);
  });

  it("a surrogate once read as diffuse stays so when later windows read calibrated", () => {
    const calibrated = { predicted: [0.8, 0.2] as [number, number], right: (i: number) => i % 5 !== 0 };
    const input = batchesOf([{ predicted: [0.6, 0.4], right: () => true }, calibrated, calibrated, calibrated]);
    const h = surrogateHealth(input.labeled, input.draws, input.outOfSample);
    expect(h.recentUnderconfidence!).toBeCloseTo(0, 6);
    expect(h.diffuse).toBe(true);
    const later = batchesOf([calibrated, calibrated, calibrated, calibrated]);
    expect(surrogateHealth(later.labeled, later.draws, later.outOfSample).diffuse).toBe(false);
  });

  it("guarded-diffuse-always: an accurate but diffuse surrogate gets the ppi-hard table instead of the soft one, in the estimate and its draws", () => {
    const diffuse = batchOf([0.6, 0.4], () => true);
    const clusters: TestClustering = { name: "c", k: 2, assignments: Int32Array.from({ length: 42 }, (_, i) => i % 2) };
    const hard = ppiTable(diffuse, clusters, { pseudo: "hard", lambda: "tuned" });
    expect(guardedPickEstimator.metrics!(diffuse, clusters)).toEqual(metricsFromTable(hard));
    expect(guardedDiffuseAlwaysEstimator.metrics!(diffuse, clusters)).toEqual(metricsFromTable(hard));
    expect(guardedDiffuseAlwaysEstimator.intervalReach!(diffuse, clusters)).toBeNull();
    expect(denseTable(guardedTable(diffuse, clusters))).toEqual(denseTable(hard));
    const draw = { ...diffuse, multiplicity: new Int32Array(42).fill(1) };
    expect(denseTable(guardedTable(draw, clusters))).toEqual(denseTable(ppiTable(draw, clusters, { pseudo: "hard", lambda: "tuned" })));
  });

  it("guarded: a diffuse surrogate loses the soft table only where the soft and ppi NMI lie more than 2 jackknife standard errors apart", () => {
    // earlier models 60% sure and always right (diffuse); the pool's pi as sure: the soft table spreads 40% of each cluster off its class
    const far = clusterAligned(0.6, 0.6);
    const soft = metricsFromTable(softTable(far.input, far.clusters)).nmi;
    const ppi = jackknife(far.input, (i) => ppiTable(i, far.clusters, { pseudo: "soft", lambda: "tuned" }));
    expect(surrogateHealth(far.input.labeled, far.input.draws, far.input.outOfSample).diffuse).toBe(true);
    expect(Math.abs(soft - ppi.full.nmi)).toBeGreaterThan(2 * ppi.se!.nmi);
    const hard = metricsFromTable(ppiTable(far.input, far.clusters, { pseudo: "hard", lambda: "tuned" }));
    expect(guardedEstimator.metrics!(far.input, far.clusters)).toEqual(hard);
    expect(guardedEstimator.intervalReach!(far.input, far.clusters)).toBeNull();
    // the same reading, but the current pi is right and sure: the soft and ppi tables agree, and the mean stays, reaching the soft estimate
    const near = clusterAligned(0.6, 1);
    expect(surrogateHealth(near.input.labeled, near.input.draws, near.input.outOfSample).diffuse).toBe(true);
    const nearSoft = metricsFromTable(softTable(near.input, near.clusters));
    expect(guardedEstimator.metrics!(near.input, near.clusters).nmi).toBeCloseTo(nearSoft.nmi, 9);
    expect(guardedEstimator.intervalReach!(near.input, near.clusters)).toEqual(nearSoft);
    expect(guardedDiffuseAlwaysEstimator.intervalReach!(near.input, near.clusters)).toBeNull();
  });
});

describe("trainer guard", () => {
  it("trains supervised instead of FixMatch while the surrogate is weak", async () => {
    const { runRound } = await import("./round");
    const { argmaxEstimator } = await import("./estimators");
    const bad = setup([0.1, 0.9], [0.8, 0.2]);
    const calls: boolean[] = [];
    const surrogate = {
      fit: async (_l: unknown, _u: unknown, options: { fixmatch: boolean }) => {
        calls.push(options.fixmatch);
        return { backend: "fake", trainSeconds: 0, steps: 0, maskRate: null, finalLoss: null };
      },
      predictProba: async (rows: Int32Array) => new Float32Array(rows.length * 2).fill(0.5),
      predictProbaMc: async () => new Float32Array(0),
      dispose: () => undefined,
    };
    const state = {
      problem: { embeddings: { data: new Float32Array(6), n: 6, d: 1 }, numClasses: 2, clusterings: [clustering] },
      labeled: bad.labeled,
      draws: bad.draws,
      round: 1,
      outOfSample: bad.outOfSample,
    };
    const options = { acquisition: "random" as const, estimator: argmaxEstimator, fixmatch: true, batch: 0, seed: 0, intervals: false as const };
    const guarded = await runRound(state, surrogate, { ...options, trainerGuard: true });
    expect(guarded.trainer).toBe("supervised");
    expect(guarded.health?.weak).toBe(true);
    const plain = await runRound(state, surrogate, options);
    expect(plain.trainer).toBe("fixmatch");
    expect(calls).toEqual([false, true]);
  });
});

describe("guarded intervals", () => {
  it("are the ppi draws' spread around the guarded (soft) estimate, widened by its gap to their median", async () => {
    const { bootstrapIntervals } = await import("./intervals");
    const { metricsFromTable } = await import("@/lib/metrics");
    const { guardedPickEstimator } = await import("./estimators-guarded");
    const { ppiSoftEstimator } = await import("./ppi");
    const good = setup([0.9, 0.1], [0.2, 0.8]);
    const guarded = bootstrapIntervals(good, [clustering], guardedPickEstimator, { draws: 50, seed: 3 });
    const ppi = bootstrapIntervals(good, [clustering], ppiSoftEstimator, { draws: 50, seed: 3 });
    // the same draws at level 0: both ends are the draws' median
    const [median] = bootstrapIntervals(good, [clustering], ppiSoftEstimator, { draws: 50, seed: 3, level: 0 }).interval.c.nmi;
    const point = metricsFromTable(softTable(good, clustering)).nmi;
    const [glo, ghi] = guarded.interval.c.nmi;
    const [plo, phi] = ppi.interval.c.nmi;
    expect(Math.abs(point - median)).toBeGreaterThan(1e-3);
    expect(glo).toBeCloseTo(point - Math.hypot(median - plo, point - median), 12);
    expect(ghi).toBeCloseTo(point + Math.hypot(phi - median, point - median), 12);
    // wider than the recentred spread, by at least the gap on the side away from the median
    expect(ghi - glo).toBeGreaterThan(phi - plo);
  });
});
