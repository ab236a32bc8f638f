import { describe, expect, it } from "vitest";
import { contingency, metricsFromTable, METRIC_KEYS } from "@/lib/metrics";
import { Random } from "../../random/named-streams";
import { createFixedSurrogate, oneHot } from "../fakes/fixed-surrogate";
import { drawUniform, recordDraws } from "./designs";
import { estimatorByName, type EstimatorInput } from "./estimators";
import { softTable } from "./estimators-soft";
import { guardedEstimator, guardedLinearPlentifulEstimator } from "./estimators-guarded";
import { ppiTable } from "./ppi";
import { ppiLinear, ppiLinearMetrics } from "./ppi-linear";
import { addLabels, initialState, type CerealProblem } from "./problem";
import { runRound } from "./round";

const N = 900;
const C = 3;

/** 3 classes x 3 clusters, every cell large; a surrogate right on `right` of the rows whose pi puts 0.9 on its guess */
function syntheticCase(right: number) {
  const random = new Random(5);
  const labels = Int32Array.from({ length: N }, () => random.int(C));
  const assignments = Int32Array.from(labels, (y) => (random.next() < 0.6 ? y : random.int(C)));
  const proba = new Float32Array(N * C);
  for (let i = 0; i < N; i++) {
    const guess = random.next() < right ? labels[i] : (labels[i] + 1 + random.int(C - 1)) % C;
    for (let y = 0; y < C; y++) proba[i * C + y] = y === guess ? 0.9 : 0.05;
  }
  const problem: CerealProblem = { embeddings: { data: new Float32Array(N), n: N, d: 1 }, numClasses: C, clusterings: [{ name: "c", k: C, assignments }] };
  return { labels, proba, problem };
}

/** the estimator input of the fourth round: 50 seed labels and three uniform batches of 50 */
async function fourthRoundInput(labels: Int32Array, proba: Float32Array, problem: CerealProblem): Promise<EstimatorInput> {
  const all = Int32Array.from({ length: N }, (_, i) => i);
  const seed = recordDraws(drawUniform(all, 50, Random.from(1, "seed")), "uniform", 0, 0);
  let state = initialState(problem, seed, Int32Array.from(seed, (d) => labels[d.row]));
  let input: EstimatorInput | null = null;
  for (let r = 0; r < 4; r++) {
    const result = await runRound(state, createFixedSurrogate(proba, C), {
      acquisition: "random",
      estimator: estimatorByName("soft"),
      fixmatch: false,
      batch: 50,
      seed: 1,
      intervals: false,
      onEstimatorInput: (_round, given) => (input = given),
    });
    if (r < 3) state = { ...addLabels(state, result.next, Int32Array.from(result.next, (d) => labels[d.row])), outOfSample: result.outOfSample };
  }
  return input!;
}

describe("ppiLinear", () => {
  it("reads the true metrics with no spread where pi is the truth", async () => {
    const { labels, problem } = syntheticCase(1);
    const input = await fourthRoundInput(labels, oneHot(labels, C), problem);
    const clustering = problem.clusterings[0];
    const truth = metricsFromTable(contingency(labels, clustering.assignments));
    const { metrics, nmiSe } = ppiLinear(input, clustering);
    for (const key of METRIC_KEYS) expect(metrics[key]).toBeCloseTo(truth[key], 9);
    expect(nmiSe).toBeCloseTo(0, 12);
  });

  it("moves the soft NMI to first order towards the ppi table's (pi 90% right and sure), and has a jackknife spread", async () => {
    const { labels, proba, problem } = syntheticCase(0.9);
    const input = await fourthRoundInput(labels, proba, problem);
    const clustering = problem.clusterings[0];
    const soft = metricsFromTable(softTable(input, clustering)).nmi;
    const ppi = metricsFromTable(ppiTable(input, clustering, { pseudo: "soft", lambda: "tuned" })).nmi;
    const { metrics, nmiSe } = ppiLinear(input, clustering);
    expect(Math.abs(ppi - soft)).toBeGreaterThan(0.02);
    // the remainder is second order: a small share of the move, and the move takes the soft table's NMI most of the way to the truth
    expect(Math.abs(metrics.nmi - ppi)).toBeLessThan(0.25 * Math.abs(ppi - soft));
    const truth = metricsFromTable(contingency(labels, clustering.assignments)).nmi;
    expect(Math.abs(metrics.nmi - truth)).toBeLessThan(0.25 * Math.abs(soft - truth));
    expect(metrics).toEqual(ppiLinearMetrics(input, clustering));
    expect(nmiSe).toBeGreaterThan(0.001);
    expect(nmiSe).toBeLessThan(Math.abs(ppi - soft));
    // accuracy and AP have no closed-form one-item change: they stay the soft table's
    const softMetrics = metricsFromTable(softTable(input, clustering));
    expect(metrics.acc).toBe(softMetrics.acc);
    expect(metrics.ap).toBe(softMetrics.ap);
  });

  it("has no spread under 2 labeled rows", async () => {
    const { labels, proba, problem } = syntheticCase(0.7);
    const input = await fourthRoundInput(labels, proba, problem);
    const one = { ...input, labeled: { rows: input.labeled.rows.subarray(0, 1), labels: input.labeled.labels.subarray(0, 1) }, draws: input.draws.slice(0, 1) };
    expect(ppiLinear(one, problem.clusterings[0]).nmiSe).toBeNull();
  });
});

describe("guarded-linear-plentiful: the guard's first-order branch where labels are plentiful", () => {
  it("reports the first-order metrics where they lie more than 2 standard errors from the soft table's, else the default's mean", async () => {
    const { labels, proba, problem } = syntheticCase(0.7);
    const clustering = problem.clusterings[0];
    const biased = await fourthRoundInput(labels, proba, problem);
    const { metrics, nmiSe } = ppiLinear(biased, clustering);
    expect(Math.abs(metrics.nmi - metricsFromTable(softTable(biased, clustering)).nmi)).toBeGreaterThan(2 * nmiSe!);
    expect(guardedLinearPlentifulEstimator.metrics!(biased, clustering)).toEqual(metrics);
    expect(guardedEstimator.metrics!(biased, clustering)).not.toEqual(metrics);
    // pi the truth: no gap, so the mean, as the default
    const exact = await fourthRoundInput(labels, oneHot(labels, C), problem);
    expect(guardedLinearPlentifulEstimator.metrics!(exact, clustering)).toEqual(guardedEstimator.metrics!(exact, clustering));
  });

  it("keeps the mean while the labels are fewer than 5 per cell", async () => {
    const { labels, proba, problem } = syntheticCase(0.7);
    const clustering = problem.clusterings[0];
    const input = await fourthRoundInput(labels, proba, problem);
    const few = { ...input, labeled: { rows: input.labeled.rows.subarray(0, 44), labels: input.labeled.labels.subarray(0, 44) }, draws: input.draws.slice(0, 44) };
    expect(guardedLinearPlentifulEstimator.metrics!(few, clustering)).toEqual(guardedEstimator.metrics!(few, clustering));
  });
});
