/**
 * Many short asynchronous schedules on a small generated problem, for the unbiasedness test
 * (stage-unbiased.test.ts) and the non-response measurement (bench/non-response.ts): three
 * overlapping Gaussian classes in 2-D, N = 240, one clustering of four vertical bands that cut
 * across them, a kNN surrogate that learns from the labels (so every round's model differs),
 * Hard NMI drawn proportionally. The mean of many estimated tables is compared with the true one.
 */
import { contingency, denseTable } from "@/lib/metrics";
import { createKnnSurrogate } from "../fakes/knn-surrogate";
import { drawUniform, recordDraws } from "../method/designs";
import { labelsOnlyEstimator } from "../method/estimators";
import { initialState, type CerealProblem, type CerealState } from "../method/problem";
import type { RoundOptions } from "../method/round";
import { Random } from "../../random/named-streams";
import { answerStage, nextStage, rankedRound, RankingWindow, type Responder } from "./stage-schedule";

export const EXPERIMENT_ROWS = 240;
export const EXPERIMENT_CLASSES = 3;
export const EXPERIMENT_CLUSTERS = 4;

export interface GeneratedProblem {
  readonly problem: CerealProblem;
  readonly truth: Int32Array;
  /** the true table of the clustering, C x K row-major */
  readonly trueCells: Float64Array;
}

export function generatedProblem(): GeneratedProblem {
  const [N, C, K] = [EXPERIMENT_ROWS, EXPERIMENT_CLASSES, EXPERIMENT_CLUSTERS];
  const random = Random.from(7, "stage-unbiased");
  const gauss = () => Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
  const data = new Float32Array(N * 2);
  const truth = new Int32Array(N);
  const assignments = new Int32Array(N);
  for (let i = 0; i < N; i++) {
    truth[i] = i % C;
    data[2 * i] = 1.6 * truth[i] + gauss();
    data[2 * i + 1] = gauss();
    assignments[i] = Math.max(0, Math.min(K - 1, Math.floor(data[2 * i] + 1)));
  }
  const problem: CerealProblem = { embeddings: { data, n: N, d: 2 }, numClasses: C, clusterings: [{ name: "bands", k: K, assignments }] };
  return { problem, truth, trueCells: Float64Array.from(denseTable(contingency(truth, assignments, { rows: C, cols: K })).flat()) };
}

export interface ScheduleSpec {
  /** the schedule's seed */
  readonly seed: number;
  readonly lag: number;
  readonly seedSize: number;
  /** the size of each stage after the seed; its length is the number of stages */
  readonly sizes: readonly number[];
  readonly respond: Responder;
}

/** The seed, then the stages under the lag, answered by `respond`: the state the round after the last stage estimates from. */
export async function runSchedule(problem: CerealProblem, spec: ScheduleSpec): Promise<CerealState> {
  const n = problem.embeddings.n;
  const window = new RankingWindow(spec.lag);
  const surrogate = createKnnSurrogate(problem.embeddings, problem.numClasses);
  const all = Int32Array.from({ length: n }, (_, i) => i);
  const seedDraws = recordDraws(drawUniform(all, spec.seedSize, Random.from(spec.seed, "seed-batch")), "uniform", 0, 0);
  const seedAnswers = answerStage(seedDraws, 0, spec.respond);
  let state = initialState(problem, seedAnswers.draws, seedAnswers.labels);
  const skipped = new Set(seedAnswers.skipped);
  try {
    for (const size of spec.sizes) {
      const options: RoundOptions = {
        acquisition: "hardnmi", design: "proportional", estimator: labelsOnlyEstimator, fixmatch: false, batch: size, seed: spec.seed, intervals: false,
        exclude: skipped.size > 0 ? Int32Array.from(skipped) : undefined,
      };
      await rankedRound(state, surrogate, options, window);
      const staged = nextStage(state, { size, window, seed: spec.seed, skipped, respond: spec.respond });
      staged.skipped.forEach((row) => skipped.add(row));
      state = staged.state;
    }
  } finally {
    surrogate.dispose();
  }
  return state;
}

/** The mean of the tables, each cell's z against the truth, and n d' S^-1 d over every cell but the last (a Hotelling-type chi-square on cells - 1 df). */
export function tableDeviation(tables: readonly Float64Array[], truth: Float64Array): { mean: Float64Array; z: Float64Array; chi2: number; df: number } {
  const cells = truth.length;
  const n = tables.length;
  const mean = new Float64Array(cells);
  for (const t of tables) t.forEach((v, j) => (mean[j] += v / n));
  const p = cells - 1;
  const cov = Array.from({ length: p }, () => new Float64Array(p));
  for (const t of tables) for (let a = 0; a < p; a++) for (let b = 0; b < p; b++) cov[a][b] += ((t[a] - mean[a]) * (t[b] - mean[b])) / (n - 1);
  const z = Float64Array.from(mean, (m, j) => {
    let s = 0;
    for (const t of tables) s += (t[j] - m) ** 2;
    const se = Math.sqrt(s / (n - 1) / n);
    return se > 0 ? (m - truth[j]) / se : m === truth[j] ? 0 : Infinity;
  });
  // solve S x = d by Gauss-Jordan elimination with partial pivoting, then chi2 = n d'x
  const d = Array.from({ length: p }, (_, a) => mean[a] - truth[a]);
  const m = cov.map((row, a) => [...row, d[a]]);
  for (let col = 0; col < p; col++) {
    let pivot = col;
    for (let r = col + 1; r < p; r++) if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) pivot = r;
    [m[col], m[pivot]] = [m[pivot], m[col]];
    for (let r = 0; r < p; r++) {
      if (r === col) continue;
      const f = m[r][col] / m[col][col];
      for (let c = col; c <= p; c++) m[r][c] -= f * m[col][c];
    }
  }
  return { mean, z, chi2: n * d.reduce((s, v, a) => s + v * (m[a][p] / m[a][a]), 0), df: p };
}
