import { describe, expect, it } from "vitest";
import { METRIC_KEYS } from "@/lib/metrics";
import { argmaxEstimator, labelsOnlyEstimator } from "../method/estimators";
import { createFixedSurrogate, fixedSurrogateFactory, oneHot } from "../fakes/fixed-surrogate";
import type { FitOptions } from "../method/surrogate";
import { createKnnSurrogateFactory } from "../fakes/knn-surrogate";
import { digitsProblem } from "../fakes/digits-problem";
import { RESIDUAL_MIN_ACCURACY } from "../method/surrogate-health";
import { ensembleSurrogateFactory } from "../method/ensemble-surrogate";
import { simulate } from "./simulate";

describe("simulate", () => {
  it("warm start: rounds after the first fit warmSteps steps from the weights the previous fit ended with", async () => {
    const { problem, labels } = await digitsProblem();
    const run = async (warmSteps: number | undefined) => {
      const fits: FitOptions[] = [];
      let trained = 0;
      // the fixed surrogate, with weights that say which fit produced them
      const factory = async () => {
        const inner = createFixedSurrogate(oneHot(labels, 10), 10);
        const fit: typeof inner.fit = async (labeled, unlabeled, options) => {
          fits.push(options);
          trained++;
          return inner.fit(labeled, unlabeled, options);
        };
        return { ...inner, fit, weights: () => Float32Array.of(trained) };
      };
      const result = await simulate(problem, labels, factory, { acquisition: "hardnmi", estimator: argmaxEstimator, fixmatch: true, seed: 1, budget: 150, steps: 30, warmSteps, intervals: false });
      return { fits, config: result.config };
    };
    const warm = await run(7);
    expect(warm.fits.map((f) => [f.steps, f.initialWeights ? Array.from(f.initialWeights) : null])).toEqual([
      [30, null],
      [7, [1]],
      [7, [2]],
    ]);
    expect(warm.config).toMatchObject({ steps: 30, warmSteps: 7 });
    const cold = await run(undefined);
    expect(cold.fits.map((f) => [f.steps, f.initialWeights ?? null])).toEqual([
      [30, null],
      [30, null],
      [30, null],
    ]);
    // a cold run's JSON is what it was before warm start existed
    expect("warmSteps" in cold.config).toBe(false);
  });

  it("an ensemble of members that ignore their seed is its member: the same draws and estimates; with folds, another run", async () => {
    const { problem, labels } = await digitsProblem();
    const options = { acquisition: "hardnmi", estimator: argmaxEstimator, fixmatch: false, seed: 3, budget: 200, intervals: false } as const;
    const one = await simulate(problem, labels, createKnnSurrogateFactory(), options);
    const two = await simulate(problem, labels, ensembleSurrogateFactory(createKnnSurrogateFactory(), 2), options);
    expect(two.draws).toEqual(one.draws);
    expect(two.rounds.map((r) => r.estimate)).toEqual(one.rounds.map((r) => r.estimate));
    // each fold's member misses half the labels, so its neighbours and the run's draws differ
    const folds = await simulate(problem, labels, ensembleSurrogateFactory(createKnnSurrogateFactory(), 2, { folds: true }), options);
    expect(folds.draws.slice(0, 50)).toEqual(one.draws.slice(0, 50));
    expect(folds.draws).not.toEqual(one.draws);
  });

  it("with a surrogate that returns the true labels, every round's estimate equals the truth", async () => {
    const { problem, labels } = await digitsProblem(["kmeans_k10", "gmm_k10"]);
    const result = await simulate(problem, labels, fixedSurrogateFactory(oneHot(labels, 10)), {
      acquisition: "hardnmi",
      estimator: argmaxEstimator,
      fixmatch: false,
      seed: 3,
      budget: 250,
      intervals: { draws: 20 },
    });
    expect(result.rounds.map((r) => r.nLabels)).toEqual([50, 100, 150, 200, 250]);
    for (const r of result.rounds) {
      expect(r.surrogateAccuracyOnUnlabeled).toBe(1);
      expect(r.surrogateConfidenceOnUnlabeled).toBe(1);
      for (const c of ["kmeans_k10", "gmm_k10"])
        for (const k of METRIC_KEYS) {
          expect(r.estimate[c][k]).toBeCloseTo(r.true[c][k], 12);
          expect(r.absErr[c][k]).toBeLessThan(1e-12);
        }
    }
    expect(result.rounds[0].true.kmeans_k10.nmi).toBeCloseTo(0.7468766355717141, 10);
    expect(result.summary.aec.nmi).toBeLessThan(1e-12);
  });

  it("the same seed gives byte-identical JSON; another seed does not", async () => {
    const { problem, labels } = await digitsProblem(["kmeans_k10", "gmm_k10"]);
    const run = (seed: number) =>
      simulate(problem, labels, createKnnSurrogateFactory(), {
        acquisition: "crossentropy",
        estimator: argmaxEstimator,
        fixmatch: false,
        seed,
        budget: 200,
        intervals: { draws: 30 },
        timings: false,
      }).then((r) => JSON.stringify(r));
    const [a, b, c] = await Promise.all([run(11), run(11), run(12)]);
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    expect(a).toContain('"roundSeconds":null');
  });

  it("records every draw: the uniform seed batch first, then the design's q, in order, up to the budget", async () => {
    const { problem, labels } = await digitsProblem();
    const result = await simulate(problem, labels, createKnnSurrogateFactory(), {
      acquisition: "crossentropy",
      estimator: argmaxEstimator,
      fixmatch: false,
      seed: 1,
      seedSize: 30,
      batch: 40,
      budget: 130,
      intervals: false,
    });
    expect(result.rounds.map((r) => r.nLabels)).toEqual([30, 70, 110, 130]);
    expect(result.draws.map((d) => d.order)).toEqual(Array.from({ length: 130 }, (_, i) => i));
    expect(new Set(result.draws.map((d) => d.row)).size).toBe(130);
    const seed = result.draws.slice(0, 30);
    expect(seed.every((d) => d.design === "uniform" && d.round === 0 && d.q === 30 / 1797 && d.score === null)).toBe(true);
    const later = result.draws.slice(30);
    expect(later.every((d) => d.design === "proportional" && d.q > 0 && d.q <= 1 && typeof d.score === "number")).toBe(true);
    expect(later.map((d) => d.round)).toEqual([...Array(40).fill(1), ...Array(40).fill(2), ...Array(20).fill(3)]);
  });

  it("scoreCalibrated: the residual scores read pi at the round's fitted temperature, from the first round that has one", async () => {
    const { problem, labels } = await digitsProblem();
    const run = (scoreCalibrated: boolean) =>
      simulate(problem, labels, createKnnSurrogateFactory(), {
        acquisition: "residual",
        estimator: argmaxEstimator,
        fixmatch: false,
        seed: 2,
        seedSize: 30,
        batch: 40,
        budget: 150,
        intervals: false,
        scoreCalibrated,
      });
    const [raw, scaled] = await Promise.all([run(false), run(true)]);
    expect(scaled.config.scoreCalibrated).toBe(true);
    expect(raw.config.scoreCalibrated).toBe(false);
    // round 0 has no out-of-sample evidence (temperature 1): the first drawn batch is the same
    expect(scaled.rounds[0].calibration?.temperature).toBe(1);
    expect(scaled.draws.slice(0, 70)).toEqual(raw.draws.slice(0, 70));
    // from round 1 on a temperature is fitted (the kNN fake reads overconfident on 30 labels: T > 1 softens pi), so
    // every predicted residual, and the scores of the batch drawn, move the way the temperature says
    const temperature = scaled.rounds[1].calibration!.temperature;
    expect(Math.abs(temperature - 1)).toBeGreaterThan(0.1);
    const meanScore = (draws: typeof raw.draws) => draws.reduce((a, d) => a + d.score!, 0) / draws.length;
    expect(Math.sign(meanScore(scaled.draws.slice(70, 110)) - meanScore(raw.draws.slice(70, 110)))).toBe(Math.sign(temperature - 1));
  });

  it("residualWhenCalibrated: the residual score from the first round whose earlier models read calibrated within the gap", async () => {
    const { problem, labels } = await digitsProblem();
    const run = (residualWhenCalibrated?: number) =>
      simulate(problem, labels, createKnnSurrogateFactory(), {
        acquisition: "hardnmi",
        design: "proportional",
        estimator: argmaxEstimator,
        fixmatch: false,
        seed: 4,
        // a seed the kNN fake is over 90% right from (RESIDUAL_MIN_ACCURACY)
        seedSize: 300,
        batch: 40,
        budget: 420,
        intervals: false,
        residualWhenCalibrated,
      });
    const [plain, never, always] = await Promise.all([run(), run(0), run(1)]);
    expect(plain.rounds[0].acquisition).toBeUndefined();
    expect(always.config.residualWhenCalibrated).toBe(1);
    // the kNN fake reads 6-16 points underconfident: within a gap of 1, never within 0
    expect(never.rounds.map((r) => r.acquisition)).toEqual(["hardnmi", "hardnmi", "hardnmi", "hardnmi"]);
    expect(never.draws).toEqual(plain.draws);
    // round 0 has no out-of-sample reading: it draws by Hard NMI, later rounds by the residual score
    expect(always.rounds.map((r) => r.acquisition)).toEqual(["hardnmi", "residual", "residual", "residual"]);
    expect(always.rounds[1].surrogateHealth!.recentAccuracy).toBeGreaterThanOrEqual(RESIDUAL_MIN_ACCURACY);
    expect(always.draws.slice(0, 340)).toEqual(plain.draws.slice(0, 340));
    expect(always.draws.slice(340, 380).map((d) => d.row)).not.toEqual(plain.draws.slice(340, 380).map((d) => d.row));
    expect(always.draws.slice(340).every((d) => d.design === "proportional" && d.q > 0 && d.q <= 1)).toBe(true);
  });

  it("Random as a baseline fits no surrogate and estimates on the labels alone", async () => {
    const { problem, labels } = await digitsProblem();
    let created = 0;
    const factory = fixedSurrogateFactory(oneHot(labels, 10));
    const result = await simulate(problem, labels, (e, c) => (created++, factory(e, c)), {
      acquisition: "random",
      estimator: labelsOnlyEstimator,
      fixmatch: false,
      seed: 0,
      budget: 100,
      intervals: { draws: 20 },
    });
    expect(created).toBe(0);
    expect(result.rounds[0].backend).toBeNull();
    expect(result.rounds[0].surrogateAccuracyOnUnlabeled).toBeNull();
    // 50 labels alone overestimate NMI (the small-sample bias the pseudo-labels remove)
    expect(result.rounds[0].estimate.kmeans_k10.nmi).toBeGreaterThan(result.rounds[0].true.kmeans_k10.nmi);
  });

  it("end to end on digits with a fast surrogate (budget 200): the final error is at most half the first round's", async () => {
    const { problem, labels } = await digitsProblem();
    const result = await simulate(problem, labels, createKnnSurrogateFactory(), {
      acquisition: "random",
      estimator: argmaxEstimator,
      fixmatch: false,
      seed: 0,
      budget: 200,
    });
    const first = result.rounds[0].absErr.kmeans_k10.nmi;
    const last = result.rounds[result.rounds.length - 1].absErr.kmeans_k10.nmi;
    expect(result.rounds).toHaveLength(4);
    expect(first).toBeGreaterThan(0);
    expect(last).toBeLessThanOrEqual(first / 2);
    // the interval and the stop rule come with every round
    const [lo, hi] = result.rounds[3].interval!.kmeans_k10.nmi;
    expect(lo).toBeLessThan(hi);
    expect(result.rounds[3].stop!.kmeans_k10.nmi.converged).toBe(false);
    // AEC over 3 batches, by the trapezoid rule, and the same area per 1000 labels
    const errs = result.rounds.map((r) => r.absErr.kmeans_k10.nmi);
    const trapezoid = (errs[0] + errs[3]) / 2 + errs[1] + errs[2];
    expect(result.summary.aec.nmi).toBeCloseTo(trapezoid, 12);
    expect(result.summary.aecPer1000Labels.nmi).toBeCloseTo((trapezoid * 50) / 1000, 12);
  });
});
