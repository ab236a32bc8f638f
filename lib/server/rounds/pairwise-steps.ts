import { acquirePairs, estimatePairwiseRound, fitPairwiseRound, pairwiseRoundResult, type EstimatedPairwiseRound, type FittedPairwiseRound, type PairwiseRoundOptions, type PairwiseState } from "@/lib/cereal/pairwise/pairwise-round";
import { isUniformPairDraw, type PairDesign, type PairDrawRecord } from "@/lib/cereal/pairwise/pair-designs";
import { defaultNumOutputs } from "@/lib/cereal/pairwise/pair-surrogate";
import { loadProblem } from "../project-data/arrays";
import { writeRoundFiles } from "../project-data/round-files";
import { trainingProgress } from "./round-progress";
import type { RoundLoad, RoundMode, RoundSteps } from "./round-steps";
import { completeRound } from "./round-store";
import { stepDone } from "./step-output";
import { pairStageModels } from "./pair-stage-models";

/**
 * A pairwise project's round steps (issue #10) on lib/cereal's pairwise round: the L2C surrogate
 * trained on the project's same/different answers PAIRWISE_MEMBERS times, every metric of every
 * clustering estimated as the mean over the fits of their argmax cluster ids' value moved toward the
 * fits' consensus as far as the answered pairs' FMI says (fit-consensus.ts), the next pairs
 * drawn with the project's pair design from the first fit. Stored like a
 * clusterwise round: estimates with intervals, per-item results [N x 2] (cluster id, max p), the
 * next stage (the uncertain and anchor designs need this round's p(.|x), so the round draws it).
 * The intervals of NMI, AMI, V, ARI and FMI come from the prediction-powered pair counts (each
 * stage's uniform pairs corrected with its drawing model's p(.|x), which the round keeps on disk;
 * the uncertain and anchor designs' own pairs count as known). No direct correction of the point
 * estimate beat the uncorrected one on both digits and the demo (issue #25); averaging fits did, and
 * reading from the pair counts how far to move the mean toward the fits' consensus gained on digits.
 */
export const pairwiseRound: RoundMode = {
  async load({ project, round, frozen, plan, input }: RoundLoad): Promise<RoundSteps> {
    if (!input.deps.createPairwiseSurrogate) throw new Error("This worker has no pairwise surrogate; pairwise rounds need one (WorkerDeps.createPairwiseSurrogate).");
    const pairs = frozen.pairs;
    // each stage's answered uniform pairs and drawing model, so the intervals come from the pair counts
    const answered = new Map<number, number>();
    for (const p of pairs) if (isUniformPairDraw(p.draw)) answered.set(p.draw.round, (answered.get(p.draw.round) ?? 0) + 1);
    const stages = await pairStageModels(project, frozen.settled, answered);
    const state: PairwiseState = {
      problem: await loadProblem(project),
      pairs: {
        a: Int32Array.from(pairs, (p) => p.a),
        b: Int32Array.from(pairs, (p) => p.b),
        same: Uint8Array.from(pairs, (p) => (p.same ? 1 : 0)),
      },
      draws: pairs.map((p) => p.draw),
      round,
      stageModels: stages.models,
      stageResponse: stages.response,
    };
    const options: PairwiseRoundOptions = {
      design: project.pairDesign as PairDesign,
      strategy: "all",
      batch: plan.size,
      seed: project.seed,
      exclude: plan.drawn.pairs,
      designOptions: { uniformShare: project.pairUniformShare },
      onProgress: trainingProgress(input),
    };
    return new PairwiseSteps({ project, round, frozen, plan, input }, state, options);
  },
};

class PairwiseSteps implements RoundSteps {
  private fitted?: FittedPairwiseRound;
  private estimated?: EstimatedPairwiseRound;
  private next?: PairDrawRecord[];

  constructor(
    private readonly from: RoundLoad,
    private readonly state: PairwiseState,
    private readonly options: PairwiseRoundOptions,
  ) {}

  async fit() {
    // K' = twice the project's reference classes, or 50 when it names none (paper appendix B)
    const surrogate = await this.from.input.deps.createPairwiseSurrogate!(this.state.problem.embeddings, defaultNumOutputs(this.from.project.classes.length || null));
    try {
      this.fitted = await fitPairwiseRound(this.state, surrogate, this.options);
    } finally {
      surrogate.dispose();
    }
  }

  estimate() {
    this.estimated = estimatePairwiseRound(this.state, stepDone(this.fitted, "fit"), this.options);
  }

  acquire() {
    this.next = acquirePairs(this.state, stepDone(this.fitted, "fit"), this.options);
  }

  async store(timing: { started: number; writeStarted: number }) {
    const { state } = this;
    const { project } = this.from;
    const result = pairwiseRoundResult(state, stepDone(this.fitted, "fit"), stepDone(this.estimated, "estimate"), stepDone(this.next, "acquire"), (performance.now() - timing.started) / 1000);
    // p(.|x) is kept: later rounds correct the stages this round's model drew (pair-stage-models.ts)
    const files = result.proba ? await writeRoundFiles(project, state.round, { results: perItemResults(project.n, result), pairProba: result.proba }) : null;
    await completeRound(project, state.round, result, {
      ...timing,
      measured: {
        surrogateAccuracy: result.pairAccuracy,
        // weak: the drawing models are not shown to predict their stages' answers (NMI's interval is its whole range)
        surrogateWeak: result.uninformed,
        resultsFile: files?.resultsFile ?? null,
        probaFile: files?.probaFile ?? null,
      },
    });
    return { pairwise: true, nLabels: result.nLabels, next: result.next.length, pairAccuracy: result.pairAccuracy };
  }
}

/** [N x 2] float32: argmax cluster id (its "class") and max p, like a clusterwise round's. */
function perItemResults(n: number, result: ReturnType<typeof pairwiseRoundResult>): Float32Array {
  const k = result.numOutputs;
  const perItem = new Float32Array(n * 2);
  for (let i = 0; i < n; i++) {
    perItem[i * 2] = result.pseudoLabels![i];
    perItem[i * 2 + 1] = result.proba![i * k + result.pseudoLabels![i]];
  }
  return perItem;
}
