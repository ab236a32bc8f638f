/**
 * Asynchronous acquisition in stages (issue #18). Annotators must not wait for a round, so the
 * rows they label are drawn ahead of need, with the ranking of the latest *finished* round, which
 * may be several rounds old by then. A stage is one draw by the design from every row not drawn
 * before it (open tasks included): its inclusion probabilities are those of that draw over that
 * pool, and its out-of-sample evidence (out-of-sample.ts) comes from the model that ranked it,
 * over the same pool. Later stages are drawn one after another on the shrunken pool, never by
 * splitting or de-duplicating one draw, so each stage is a probability sample of its own pool
 * given everything before it, and the estimators (ppi.ts) weight it exactly as a batch.
 *
 * Synchronous rounds (the paper's Algorithm 1, `acquireRound`) are the special case where every
 * stage is drawn by the round that just finished, from the whole pool.
 */
import { temperatureScale } from "./calibration";
import { drawByDesign, drawUniform, inclusionProbabilities, recordDraws, type Design, type Draw } from "./designs";
import { batchEvidence, type StageEvidence } from "./out-of-sample";
import { positionsIn, type TestClustering } from "./problem";
import type { Random } from "../../random/named-streams";

/** What a finished round leaves for the stages drawn after it: its scores and its model's pi. */
export interface Ranking {
  /** the round whose model ranked the rows */
  readonly round: number;
  readonly design: Design;
  /** the proportional design's uniform share */
  readonly eps: number;
  /** every row's acquisition score (mean over clusterings); NaN where the round could not draw it; length N */
  readonly scores: ArrayLike<number>;
  /** that model's raw pi(.|x), [N x C] (NaN rows where it predicted nothing); null when the round had no surrogate */
  readonly rawProba: Float32Array | null;
  /** the temperature the estimators scaled pi with (1: none) */
  readonly temperature: number;
}

export interface StageInput {
  /** the stage's key: Draw.round of its draws and the key of its evidence */
  readonly stage: number;
  /** draw order of the stage's first draw (the number of draws before it) */
  readonly firstOrder: number;
  /** every row not drawn before this stage, increasing */
  readonly pool: Int32Array;
  readonly size: number;
  /** the latest finished round's ranking; null before any round finished (a uniform stage) */
  readonly ranking: Ranking | null;
  readonly numClasses: number;
  readonly clusterings: readonly TestClustering[];
  readonly random: Random;
}

export interface Stage {
  readonly draws: Draw[];
  readonly design: Design;
  /** the uniform share the draw used (0 for uniform and top-score draws) */
  readonly eps: number;
  readonly poolSize: number;
  /** the ranking model's view of the stage (null without a model: the draws count as a plain Horvitz-Thompson sample) */
  readonly evidence: StageEvidence | null;
}

/** One stage: `size` draws from the pool by the ranking's design, with the ranking model's evidence over that pool. */
export function drawStage(input: StageInput): Stage {
  const { pool, ranking, numClasses: C } = input;
  const size = Math.min(input.size, pool.length);
  if (!ranking) {
    const draws = recordDraws(drawUniform(pool, size, input.random), "uniform", input.stage, input.firstOrder);
    return { draws, design: "uniform", eps: 0, poolSize: pool.length, evidence: null };
  }
  const scores = Float64Array.from(pool, (row) => {
    const s = ranking.scores[row];
    if (!Number.isFinite(s)) throw new Error(`row ${row} is in the stage's pool but round ${ranking.round} did not rank it`);
    return s;
  });
  const eps = ranking.design === "proportional" ? ranking.eps : 0;
  const draws = recordDraws(drawByDesign(ranking.design, pool, scores, size, input.random, ranking.eps), ranking.design, input.stage, input.firstOrder);
  if (!ranking.rawProba) return { draws, design: ranking.design, eps, poolSize: pool.length, evidence: null };

  const raw = new Float32Array(pool.length * C);
  const source = ranking.rawProba;
  for (let i = 0; i < pool.length; i++) for (let y = 0, from = pool[i] * C; y < C; y++) raw[i * C + y] = source[from + y];
  const evidence = batchEvidence({
    round: input.stage,
    pool,
    rawProba: raw,
    calibratedProba: ranking.temperature === 1 ? raw : temperatureScale(raw, C, ranking.temperature),
    temperature: ranking.temperature,
    numClasses: C,
    clusterings: input.clusterings,
    drawnPositions: positionsIn(pool, draws.map((d) => d.row)),
    q: ranking.design === "proportional" ? inclusionProbabilities(scores, size, ranking.eps) : undefined,
  });
  return { draws, design: ranking.design, eps, poolSize: pool.length, evidence };
}
