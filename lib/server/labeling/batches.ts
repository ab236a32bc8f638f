import { drawUniform, type Design } from "@/lib/cereal/method/designs";
import { drawUniformPairs, pairKey } from "@/lib/cereal/pairwise/pair-designs";
import { Random } from "@/lib/random/named-streams";
import { Prisma } from "@/lib/generated/prisma/client";
import { lockProject, notifyProjectChanged, type Tx } from "../db";

/**
 * Stages (Batch rows) and their tasks. Stage 0 is the uniform seed stage; later stages are drawn
 * ahead of need (stages.ts) or by a pairwise round. Every task keeps its draw record.
 */

/** Projects whose seed stage this process saw committed: a stage is never removed, so every next-task call need not look again. */
const seeded = new Set<string>();

/** The seed stage (stage 0): a uniform sample of seedSize items, or pairs, drawn once per project. */
export async function ensureSeedBatch(tx: Tx, project: { id: string; n: number; seed: number; seedSize: number; budget: number; mode: string }) {
  if (seeded.has(project.id)) return;
  if (await tx.batch.findUnique({ where: { projectId_index: { projectId: project.id, index: 0 } }, select: { id: true } })) {
    seeded.add(project.id);
    return;
  }
  const size = Math.min(project.seedSize, project.budget, project.n);
  const random = Random.from(project.seed, "seed-batch");
  const draws =
    project.mode === "pairwise"
      ? drawUniformPairs(project.n, size, random)
      : drawUniform(Int32Array.from({ length: project.n }, (_, i) => i), size, random).map((d) => ({ ...d, rowB: null }));
  const poolSize = project.mode === "pairwise" ? null : project.n;
  await createBatch(tx, project.id, { index: 0, drawnByRoundIndex: null, design: "uniform", eps: 0, poolSize, evidence: null }, draws.map((d) => ({ ...d, design: "uniform" as const })));
}

/** What a stage records besides its tasks (the Batch row). */
export interface StageRow {
  readonly index: number;
  /** the round whose ranking drew it; null before any round finished */
  readonly drawnByRoundIndex: number | null;
  /** the draw's design; "mixed" for a pair stage whose uniform share and designed pairs differ */
  readonly design: Design | "mixed";
  readonly eps: number;
  readonly poolSize: number | null;
  readonly evidence: Prisma.InputJsonValue | null;
}

/**
 * Writes a stage with one task per draw and its draw record; draw orders continue the project's
 * sequence. Its size is the number of draws. Returns the new tasks' ids in draw order.
 */
export async function createBatch(
  tx: Tx,
  projectId: string,
  stage: StageRow,
  draws: readonly { row: number; rowB: number | null; score: number | null; q: number; design: Design }[],
): Promise<string[]> {
  await lockProject(tx, projectId);
  const batch = await tx.batch.create({
    data: {
      projectId,
      index: stage.index,
      drawnByRoundIndex: stage.drawnByRoundIndex,
      size: draws.length,
      design: stage.design,
      eps: stage.eps,
      poolSize: stage.poolSize,
      evidence: stage.evidence ?? Prisma.DbNull,
    },
  });
  await notifyProjectChanged(tx, projectId); // the live snapshot's latest stage
  const last = await tx.task.aggregate({ where: { projectId }, _max: { drawOrder: true } });
  const first = (last._max.drawOrder ?? -1) + 1;
  const tasks = await tx.task.createManyAndReturn({
    data: draws.map((d, i) => ({
      projectId,
      batchId: batch.id,
      itemIndex: d.row,
      itemIndexB: d.rowB,
      design: d.design,
      score: d.score,
      q: d.q,
      drawOrder: first + i,
    })),
    select: { id: true, drawOrder: true },
  });
  return tasks.sort((x, y) => x.drawOrder - y.drawOrder).map((t) => t.id);
}

/** Rows (or pair keys) that already have a task: never drawn twice. */
export async function drawnKeys(tx: Tx, projectId: string) {
  const tasks = await tx.task.findMany({ where: { projectId }, select: { itemIndex: true, itemIndexB: true } });
  return {
    rows: new Set(tasks.map((t) => t.itemIndex)),
    pairs: new Set(tasks.filter((t) => t.itemIndexB !== null).map((t) => pairKey(t.itemIndex, t.itemIndexB!))),
    count: tasks.length,
  };
}
