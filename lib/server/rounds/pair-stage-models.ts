import { isUniformPairDraw } from "@/lib/cereal/pairwise/pair-designs";
import { db } from "../db";
import { readArray } from "../project-data/arrays";
import type { ProjectFolder } from "../project-data/paths";

/**
 * What a pairwise round needs for its pair-count intervals (lib/cereal/pairwise/pair-count-ppi.ts):
 * for every settled stage, the p(.|x) of the model fixed before the stage was drawn (out of sample:
 * it never saw the stage's answers), and the share of the stage's drawn uniform pairs answered.
 * A stage a round drew itself names that round (drawnByRoundIndex); a uniform stage drawn ahead of
 * need (labeling/stages.ts) gets the latest round that finished before it was created. Pairwise
 * rounds keep their p(.|x) file (round-R-proba.npy) for this; a stage whose model left no file
 * (the seed stage, a stage drawn before any round finished, rounds from before the file) corrects
 * nothing, and its answers count as known pairs for the stages after it. The pair counts correct
 * with a stage's uniform pairs: a stage of the uncertain or anchor design corrects with its uniform
 * share, and its own pairs count as known (pair-count-ppi.ts, stagesByRound).
 */
export interface PairStageModels {
  readonly models: Map<number, readonly Float32Array[]>;
  readonly response: Map<number, number>;
}

export interface StageRow {
  readonly index: number;
  readonly drawnByRoundIndex: number | null;
  readonly createdAt: Date;
  /** pairs drawn in the stage */
  readonly size: number;
}

export interface FinishedRound {
  readonly index: number;
  readonly finishedAt: Date;
}

/** stage index -> the round whose model was fixed before the stage was drawn (stages with none are left out) */
export function drawingRounds(stages: readonly StageRow[], rounds: readonly FinishedRound[]): Map<number, number> {
  const byFinish = [...rounds].sort((x, y) => x.finishedAt.getTime() - y.finishedAt.getTime());
  const out = new Map<number, number>();
  for (const stage of stages) {
    if (stage.drawnByRoundIndex !== null) {
      out.set(stage.index, stage.drawnByRoundIndex);
      continue;
    }
    let latest: FinishedRound | null = null;
    for (const r of byFinish) if (r.finishedAt.getTime() < stage.createdAt.getTime() && (!latest || r.index > latest.index)) latest = r;
    if (latest) out.set(stage.index, latest.index);
  }
  return out;
}

/**
 * The settled stages' drawing models and the answered shares of their uniform pairs (`answered`
 * counts each stage's answered uniform pairs, isUniformPairDraw: a stage of the uncertain or anchor
 * design corrects with its uniform share only, pair-count-ppi.ts).
 */
export async function pairStageModels(project: ProjectFolder & { id: string }, settled: number, answered: ReadonlyMap<number, number>): Promise<PairStageModels> {
  const [stages, rounds, tasks] = await Promise.all([
    db().batch.findMany({ where: { projectId: project.id, index: { lte: settled } }, select: { index: true, drawnByRoundIndex: true, createdAt: true, size: true } }),
    db().round.findMany({ where: { projectId: project.id }, select: { index: true, status: true, finishedAt: true, probaFile: true } }),
    db().task.findMany({ where: { projectId: project.id, batch: { index: { lte: settled } } }, select: { design: true, score: true, batch: { select: { index: true } } } }),
  ]);
  const drawnUniform = new Map<number, number>();
  for (const t of tasks) if (isUniformPairDraw(t)) drawnUniform.set(t.batch.index, (drawnUniform.get(t.batch.index) ?? 0) + 1);
  const done = rounds.filter((r) => r.status === "done" && r.finishedAt !== null);
  const files = new Map(done.flatMap((r) => (r.probaFile ? [[r.index, r.probaFile] as const] : [])));
  const drawing = drawingRounds(stages, done.map((r) => ({ index: r.index, finishedAt: r.finishedAt! })));
  const read = new Map<number, Float32Array>();
  const models = new Map<number, readonly Float32Array[]>();
  for (const [stage, round] of drawing) {
    const file = files.get(round);
    if (!file) continue;
    if (!read.has(round)) read.set(round, (await readArray(project, file)).data as Float32Array);
    models.set(stage, [read.get(round)!]);
  }
  const response = new Map<number, number>();
  for (const stage of stages) {
    const count = answered.get(stage.index) ?? 0;
    const drawn = drawnUniform.get(stage.index) ?? 0;
    if (count > 0 && drawn > 0) response.set(stage.index, Math.min(1, count / drawn));
  }
  return { models, response };
}
