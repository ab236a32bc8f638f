/**
 * The app's asynchronous acquisition (issue #18, method/stages.ts) offline: `simulate --lag L`.
 * Annotators never wait for a round, so a stage is drawn with the ranking of the latest FINISHED
 * round, which is L rounds older than the round that will first estimate from it:
 *  - stage 0 is the uniform seed;
 *  - stage s >= 1 is drawn with the ranking of round s - 1 - L (uniform, no evidence, while
 *    s - 1 - L < 0), from every row not drawn before it (skipped rows included), of size `batch`;
 *  - round r estimates from stages 0..r (the oracle answers at once; the app's rounds use the
 *    settled stages, which is this when labels settle in draw order).
 * L = 0 is the synchronous loop (round s - 1 draws stage s); the simulator keeps its own code path
 * for it (runRound), so L = 0 runs stay byte-identical to the runs made before stages existed.
 * For L >= 1 a round is fitted and estimated, then ranked (round.ts rankRound) instead of drawing,
 * and the rankings of the last L + 1 rounds are kept for the stages still to draw with them.
 */
import { drawStage, type Ranking } from "../method/stages";
import type { Draw } from "../method/designs";
import { withEvidence, EMPTY_RECORD } from "../method/out-of-sample";
import { addLabels, type CerealState } from "../method/problem";
import { estimateRound, fitRound, rankRound, roundResult, type RoundOptions, type RoundResult } from "../method/round";
import type { Surrogate } from "../method/surrogate";
import { Random } from "../../random/named-streams";

/** the round whose ranking draws stage `stage` under lag `lag`; negative: none finished yet (a uniform stage) */
export function drawingRound(stage: number, lag: number): number {
  return stage - 1 - lag;
}

/** The rankings later stages still need: round r's is kept until stage r + 1 + L has been drawn with it. */
export class RankingWindow {
  private readonly rankings = new Map<number, Ranking>();
  constructor(private readonly lag: number) {
    if (!Number.isInteger(lag) || lag < 0) throw new Error(`lag must be a non-negative integer, got ${lag}`);
  }

  keep(ranking: Ranking): void {
    this.rankings.set(ranking.round, ranking);
    // round r - L - 1's ranking drew stage r, the last stage before round r: it is done with
    this.rankings.delete(ranking.round - this.lag - 1);
  }

  /** the ranking stage `stage` draws with; null for a uniform stage; throws if that round's ranking was never kept */
  forStage(stage: number): Ranking | null {
    const round = drawingRound(stage, this.lag);
    if (round < 0) return null;
    const ranking = this.rankings.get(round);
    if (!ranking) throw new Error(`stage ${stage} draws with round ${round}'s ranking under lag ${this.lag}, but it is not kept`);
    return ranking;
  }

  /** how many rankings are held (at most L + 1) */
  get size(): number {
    return this.rankings.size;
  }
}

/** Who answers a stage's draws: the labels of every draw and whether it was answered (false: skipped or unsure). */
export type Responder = (draws: readonly Draw[], stage: number) => { readonly labels: Int32Array; readonly answered: readonly boolean[] };

/** A stage's answers: the answered draws with their labels, and the rows left without a label (non-response). */
export interface AnsweredStage {
  readonly draws: Draw[];
  readonly labels: Int32Array;
  /** drawn but skipped: out of their stage's sample and out of every later stage's pool */
  readonly skipped: number[];
}

export function answerStage(draws: readonly Draw[], stage: number, respond: Responder): AnsweredStage {
  const { labels, answered } = respond(draws, stage);
  return {
    draws: draws.filter((_, i) => answered[i]),
    labels: Int32Array.from(labels.filter((_, i) => answered[i])),
    skipped: draws.filter((_, i) => !answered[i]).map((d) => d.row),
  };
}

/** the state after a stage was drawn and answered, and the rows it left without a label */
export interface StageOutcome {
  readonly state: CerealState;
  readonly skipped: readonly number[];
}

/**
 * Stage s = state.round + 1, drawn from every row not drawn before it (the state's unlabeled
 * rows less `skipped`) with the ranking of round s - 1 - L and answered by `respond`. Its
 * evidence (the drawing model's view of its pool) joins the state's out-of-sample record.
 */
export function nextStage(
  state: CerealState,
  args: { readonly size: number; readonly window: RankingWindow; readonly seed: number; readonly skipped: ReadonlySet<number>; readonly respond: Responder },
): StageOutcome {
  const { problem } = state;
  const n = problem.embeddings.n;
  const stage = state.round + 1;
  const drawn = new Uint8Array(n);
  for (const row of state.labeled.rows) drawn[row] = 1;
  for (const row of args.skipped) drawn[row] = 1;
  const pool = Int32Array.from({ length: n }, (_, i) => i).filter((row) => !drawn[row]);
  const drawnStage = drawStage({
    stage,
    firstOrder: state.draws.length + args.skipped.size,
    pool,
    size: args.size,
    ranking: args.window.forStage(stage),
    numClasses: problem.numClasses,
    clusterings: problem.clusterings,
    random: Random.from(args.seed, "stage", stage),
  });
  const record = state.outOfSample ?? EMPTY_RECORD;
  const answered = answerStage(drawnStage.draws, stage, args.respond);
  return {
    state: { ...addLabels(state, answered.draws, answered.labels), outOfSample: drawnStage.evidence ? withEvidence(record, drawnStage.evidence) : record },
    skipped: answered.skipped,
  };
}

/** A round of the schedule (L >= 1): fitted and estimated like runRound, then ranked for a later stage instead of drawing (nothing drawn when options.batch is 0). */
export async function rankedRound(state: CerealState, surrogate: Surrogate | null, options: RoundOptions, window: RankingWindow): Promise<RoundResult> {
  const started = performance.now();
  const fitted = await fitRound(state, surrogate, options);
  const estimated = estimateRound(state, fitted, options);
  if (options.batch > 0) window.keep(rankRound(state, fitted, estimated, options));
  const unchanged = { next: [], poolScores: null, outOfSample: state.outOfSample ?? EMPTY_RECORD };
  return roundResult(state, fitted, estimated, unchanged, (performance.now() - started) / 1000);
}
