import type { CerealState } from "@/lib/cereal/method/problem";
import { EMPTY_RECORD } from "@/lib/cereal/method/out-of-sample";
import { estimateRound, fitRound, interimFit, needsSurrogate, rankRound, roundAcquisition, type EstimatedRound, type FittedRound, type RoundOptions } from "@/lib/cereal/method/round";
import type { Ranking } from "@/lib/cereal/method/stages";
import { db } from "../db";
import { recordWithStages } from "../labeling/stages";
import { loadProblem } from "../project-data/arrays";
import { readEarlierRecord, readRoundProba, readRoundWeights, removeRoundProba, removeRoundWeights, writeRoundFiles } from "../project-data/round-files";
import { clusterwiseRoundOptions } from "./round-config";
import { trainingProgress } from "./round-progress";
import type { RoundLoad, RoundMode, RoundSteps } from "./round-steps";
import { completeRound, storeInterimEstimates } from "./round-store";
import { stepDone } from "./step-output";

/**
 * A clusterwise round's steps on lib/cereal's round (fitRound, estimateRound, rankRound): the
 * TF.js surrogate trained on the labels of the settled stages, estimates of every clustering with
 * each stage weighted by its own draw and its drawing model's evidence, and the ranking of every
 * row not drawn yet, which the stages drawn after this round use (labeling/stages.ts). Stores
 * per-item results, the ranking (scores and pi) and the record it estimated with
 * (project-data/round-files.ts).
 */
export const clusterwiseRound: RoundMode = {
  async load({ project, round, frozen, plan, input }: RoundLoad): Promise<RoundSteps> {
    const labels = frozen.items;
    const stages = await db().batch.findMany({ where: { projectId: project.id, index: { lte: frozen.settled } }, orderBy: { index: "asc" }, select: { evidence: true } });
    const settings = clusterwiseRoundOptions(project, project.seed);
    const state: CerealState = {
      problem: await loadProblem(project),
      labeled: { rows: Int32Array.from(labels, (l) => l.itemIndex), labels: Int32Array.from(labels, (l) => l.classIndex) },
      draws: labels.map((l) => l.draw),
      round,
      outOfSample: recordWithStages((await readEarlierRecord(project, round)) ?? EMPTY_RECORD, stages),
      // warm start: the previous round's weights, read again when this round is resumed after a kill
      warmStart: settings.warmSteps !== undefined ? await readRoundWeights(project, round - 1) : undefined,
    };
    const options: RoundOptions = {
      ...settings,
      // the ranking covers every row not drawn yet, whatever the budget has room for
      batch: project.batchSize,
      exclude: Int32Array.from(plan.drawn.rows),
      onProgress: trainingProgress(input),
    };
    return new ClusterwiseSteps({ project, round, frozen, plan, input }, state, options);
  },
};

class ClusterwiseSteps implements RoundSteps {
  private fitted?: FittedRound;
  private estimated?: EstimatedRound;
  private ranking?: Ranking;

  constructor(
    private readonly from: RoundLoad,
    private readonly state: CerealState,
    private readonly options: RoundOptions,
  ) {}

  /**
   * The interim estimate (issue #24): the estimate step on the previous round's model's pi
   * (round-(R-1)-proba.npy) instead of this round's fit, stored on the Round row at once and
   * replaced by the final estimates at store. Nothing of it reaches the fit, the final estimate or
   * the ranking (its interval draws have their own seeded stream), so the round's results are those
   * of a round without it, resumed or not. None in round 0 (no earlier model), without a surrogate,
   * or once the previous round's pi is gone.
   */
  async interim(): Promise<boolean> {
    const { state, options } = this;
    const { project } = this.from;
    if (state.round === 0 || !needsSurrogate(options)) return false;
    const previous = await db().round.findUnique({ where: { projectId_index: { projectId: project.id, index: state.round - 1 } }, select: { status: true, probaFile: true } });
    if (previous?.status !== "done" || !previous.probaFile) return false;
    const stored = await readRoundProba(project, previous.probaFile);
    const fitted = stored?.numClasses === state.problem.numClasses ? interimFit(state, stored.proba) : null;
    if (!fitted) return false;
    const { estimate, intervals } = estimateRound(state, fitted, options);
    return storeInterimEstimates(project.id, state.round, estimate, intervals);
  }

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
    this.ranking = rankRound(this.state, stepDone(this.fitted, "fit"), stepDone(this.estimated, "estimate"), this.options);
  }

  async store(timing: { started: number; writeStarted: number }) {
    const { state } = this;
    const { project } = this.from;
    const fitted = stepDone(this.fitted, "fit");
    const estimated = stepDone(this.estimated, "estimate");
    const ranking = stepDone(this.ranking, "acquire");
    const files = await writeRoundFiles(project, state.round, {
      results: perItemResults(state, fitted, estimated),
      ranking: { scores: Float32Array.from(ranking.scores), proba: ranking.rawProba },
      evidence: state.outOfSample,
      weights: fitted.weights,
    });
    const nLabels = state.labeled.rows.length;
    await completeRound(project, state.round, { nLabels, fit: fitted.fit, estimate: estimated.estimate, intervals: estimated.intervals, next: [] }, {
      ...timing,
      measured: {
        maskRate: fitted.fit?.maskRate ?? null,
        surrogateAccuracy: fitted.health?.recentAccuracy ?? null,
        surrogateWeak: fitted.health ? fitted.health.weak : null,
        surrogateEce: estimated.calibration?.eceRaw ?? null,
        resultsFile: files.resultsFile,
        scoresFile: files.scoresFile,
        probaFile: files.probaFile,
        temperature: ranking.temperature,
        acquisition: roundAcquisition(this.options, fitted.health),
      },
    });
    // stages draw with the latest round's ranking: pi of the round before the previous is no longer read
    await removeRoundProba(project, state.round - 2);
    await removeRoundWeights(project, state.round - 1);
    return { nLabels, next: 0 };
  }
}

/** [N x 2] float32 per item: class (label, or pseudo-label; -1 if none) and confidence (1 for labels, max pi otherwise). */
function perItemResults(state: CerealState, fitted: FittedRound, estimated: EstimatedRound): Float32Array {
  const n = state.problem.embeddings.n;
  const perItem = new Float32Array(n * 2).fill(-1);
  state.labeled.rows.forEach((row, i) => {
    perItem[row * 2] = state.labeled.labels[i];
    perItem[row * 2 + 1] = 1;
  });
  const { proba } = fitted;
  const { pseudoLabels } = estimated;
  if (proba && pseudoLabels) {
    const C = state.problem.numClasses;
    fitted.unlabeled.forEach((row, i) => {
      perItem[row * 2] = pseudoLabels[i];
      let max = 0;
      for (let y = 0; y < C; y++) max = Math.max(max, proba[i * C + y]);
      perItem[row * 2 + 1] = max;
    });
  }
  return perItem;
}
