import { drawUniform, type Design } from "@/lib/cereal/method/designs";
import { drawUniformPairs, pairKey } from "@/lib/cereal/pairwise/pair-designs";
import { Random } from "@/lib/random/named-streams";
import { lockProject, type Tx } from "../db";

/**
 * Batches and their tasks. Batch 0 is the uniform seed batch; batch k + 1 is drawn by round k
 * (plus any overflow drawn while round k trained). Every task keeps its draw record.
 */

/** The seed batch (batch 0): a uniform sample of seedSize items, or pairs, drawn once per project. */
export async function ensureSeedBatch(tx: Tx, project: { id: string; n: number; seed: number; seedSize: number; budget: number; mode: string }) {
  if (await tx.batch.findUnique({ where: { projectId_index: { projectId: project.id, index: 0 } }, select: { id: true } })) return;
  const size = Math.min(project.seedSize, project.budget, project.n);
  const random = Random.from(project.seed, "seed-batch");
  const draws =
    project.mode === "pairwise"
      ? drawUniformPairs(project.n, size, random)
      : drawUniform(Int32Array.from({ length: project.n }, (_, i) => i), size, random).map((d) => ({ ...d, rowB: null }));
  await createBatch(tx, project.id, 0, null, size, draws.map((d) => ({ ...d, design: "uniform" as const })), false);
}

/**
 * Writes a batch (or adds to an existing one) with one task per draw and its draw record; draw
 * orders continue the project's sequence. Returns the new tasks' ids in draw order.
 */
export async function createBatch(
  tx: Tx,
  projectId: string,
  index: number,
  drawnByRoundIndex: number | null,
  size: number,
  draws: readonly { row: number; rowB: number | null; score: number | null; q: number; design: Design }[],
  overflow: boolean,
): Promise<string[]> {
  await lockProject(tx, projectId);
  const batch = await tx.batch.upsert({
    where: { projectId_index: { projectId, index } },
    create: { projectId, index, drawnByRoundIndex, size },
    update: drawnByRoundIndex === null ? {} : { drawnByRoundIndex },
  });
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
      overflow,
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
