import type { CerealState } from "@/lib/cereal/method/problem";
import { acquireRound, estimateRound, fitRound, needsSurrogate, roundResult, type AcquiredBatch, type EstimatedRound, type FittedRound, type RoundOptions } from "@/lib/cereal/method/round";
import { loadProblem } from "../project-data/arrays";
import { readOutOfSampleRecord, writeRoundFiles } from "../project-data/round-files";
import { clusterwiseRoundOptions } from "./round-config";
import { trainingProgress } from "./round-progress";
import type { RoundLoad, RoundMode, RoundSteps } from "./round-steps";
import { completeRound } from "./round-store";
import { stepDone } from "./step-output";

/**
 * A clusterwise round's steps on lib/cereal's round (fitRound, estimateRound, acquireRound):
 * the TF.js surrogate trained on the item labels, estimates of every clustering, the next batch
 * by the project's acquisition function and design. Stores per-item results, the pool's scores
 * and the out-of-sample record (project-data/round-files.ts).
 */
export const clusterwiseRound: RoundMode = {
  async load({ project, round, frozen, plan, input }: RoundLoad): Promise<RoundSteps> {
    const labels = frozen.items;
    const state: CerealState = {
      problem: await loadProblem(project),
      labeled: { rows: Int32Array.from(labels, (l) => l.itemIndex), labels: Int32Array.from(labels, (l) => l.classIndex) },
      draws: labels.map((l) => l.draw),
      round,
      outOfSample: await readOutOfSampleRecord(project, round - 1),
    };
    const options: RoundOptions = {
      ...clusterwiseRoundOptions(project, project.seed),
      batch: plan.size,
      exclude: Int32Array.from(plan.drawn.rows),
      onProgress: trainingProgress(input),
    };
    return new ClusterwiseSteps({ project, round, frozen, plan, input }, state, options);
  },
};

class ClusterwiseSteps implements RoundSteps {
  private fitted?: FittedRound;
  private estimated?: EstimatedRound;
  private acquired?: AcquiredBatch;

  constructor(
    private readonly from: RoundLoad,
    private readonly state: CerealState,
    private readonly options: RoundOptions,
  ) {}

  async fit() {
    const { state, options } = this;
    const surrogate = needsSurrogate(options) ? await this.from.input.deps.createSurrogate(state.problem.embeddings, Math.max(2, this.from.project.classes.length)) : null;
    try {
      this.fitted = await fitRound(state, surrogate, options);
    } finally {
      surrogate?.dispose();
    }
  }

  estimate() {
    this.estimated = estimateRound(this.state, stepDone(this.fitted, "fit"), this.options);
  }

  acquire() {
    this.acquired = acquireRound(this.state, stepDone(this.fitted, "fit"), stepDone(this.estimated, "estimate"), this.options);
  }

  async store(timing: { started: number; writeStarted: number }) {
    const { state } = this;
    const { project } = this.from;
    const result = roundResult(state, stepDone(this.fitted, "fit"), stepDone(this.estimated, "estimate"), stepDone(this.acquired, "acquire"), (performance.now() - timing.started) / 1000);
    const files = await writeRoundFiles(project, state.round, { results: perItemResults(state, result), scores: poolScores(project.n, result.poolScores), record: result.outOfSample });
    await completeRound(project, state.round, result, {
      nextBatchSize: this.from.plan.overflow + this.from.plan.size,
      ...timing,
      measured: {
        maskRate: result.fit?.maskRate ?? null,
        surrogateAccuracy: result.health?.recentAccuracy ?? null,
        surrogateWeak: result.health ? result.health.weak : null,
        surrogateEce: result.calibration?.eceRaw ?? null,
        resultsFile: files.resultsFile,
        scoresFile: files.scoresFile,
      },
    });
    return { nLabels: result.nLabels, next: result.next.length };
  }
}

/** [N x 2] float32: class (label, or pseudo-label; -1 if none) and confidence (1 for labels, max pi otherwise). */
function perItemResults(state: CerealState, result: ReturnType<typeof roundResult>): Float32Array {
  const n = state.problem.embeddings.n;
  const perItem = new Float32Array(n * 2).fill(-1);
  state.labeled.rows.forEach((row, i) => {
    perItem[row * 2] = state.labeled.labels[i];
    perItem[row * 2 + 1] = 1;
  });
  if (result.proba && result.pseudoLabels) {
    const C = state.problem.numClasses;
    result.unlabeled.forEach((row, i) => {
      perItem[row * 2] = result.pseudoLabels![i];
      let max = 0;
      for (let y = 0; y < C; y++) max = Math.max(max, result.proba![i * C + y]);
      perItem[row * 2 + 1] = max;
    });
  }
  return perItem;
}

/** [N] float32: the acquisition score of every pool row, NaN elsewhere (the ranking overflow draws with). */
function poolScores(n: number, pool: ReturnType<typeof roundResult>["poolScores"]): Float32Array {
  const scores = new Float32Array(n).fill(Number.NaN);
  if (pool) pool.rows.forEach((row, i) => (scores[row] = pool.scores[i]));
  return scores;
}
