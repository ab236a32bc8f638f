import { db } from "../db";
import { readArray } from "../project-data/arrays";
import type { ProjectFolder } from "../project-data/paths";

/**
 * What a random-pairs round needs for its pair-count intervals (lib/cereal/pairwise/pair-count-ppi.ts):
 * for every settled stage, the p(.|x) of the model fixed before the stage was drawn (out of sample:
 * it never saw the stage's answers), and the share of the stage's drawn pairs that were answered.
 * A stage a round drew itself names that round (drawnByRoundIndex); a uniform stage drawn ahead of
 * need (labeling/stages.ts) gets the latest round that finished before it was created. Pairwise
 * rounds keep their p(.|x) file (round-R-proba.npy) for this; a stage whose model left no file
 * (the seed stage, a stage drawn before any round finished, rounds from before the file) corrects
 * nothing, and its answers count as known pairs for the stages after it. The pair counts need
 * every stage to be uniform pairs: a stage drawn by a round whose design drew other pairs (the
 * round's config has a uniform share below 1) leaves the round without them (null).
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
 * The settled stages' drawing models and answered shares (`answered` counts each stage's answered
 * pairs), or null when a settled stage is not all uniform pairs.
 */
export async function pairStageModels(project: ProjectFolder & { id: string }, settled: number, answered: ReadonlyMap<number, number>): Promise<PairStageModels | null> {
  const [stages, rounds] = await Promise.all([
    db().batch.findMany({ where: { projectId: project.id, index: { lte: settled } }, select: { index: true, drawnByRoundIndex: true, createdAt: true, size: true } }),
    db().round.findMany({ where: { projectId: project.id }, select: { index: true, status: true, finishedAt: true, probaFile: true, config: true } }),
  ]);
  const uniformShare = new Map(rounds.map((r) => [r.index, (r.config as { uniformShare?: number } | null)?.uniformShare ?? null]));
  if (stages.some((s) => s.drawnByRoundIndex !== null && uniformShare.get(s.drawnByRoundIndex) !== 1)) return null;
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
    if (count > 0 && stage.size > 0) response.set(stage.index, Math.min(1, count / stage.size));
  }
  return { models, response };
}
