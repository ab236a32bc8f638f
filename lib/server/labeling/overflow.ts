import { drawByDesign, type Design } from "@/lib/cereal/method/designs";
import { drawUniformPairs } from "@/lib/cereal/pairwise/pair-designs";
import { Random } from "@/lib/random/named-streams";
import type { Tx } from "../db";
import { createBatch, drawnKeys } from "./batches";
import { readRoundScores } from "../project-data/round-files";

/**
 * Overflow tasks: annotators never wait for a round. When every slot of the drawn tasks is taken,
 * new tasks are drawn into the next batch by the same design from the latest round's ranking
 * (its acquisition scores, stored per item), each with its draw record. The round that then
 * fills the next batch acquires n minus the overflow already in it.
 */

interface OverflowProject {
  id: string;
  n: number;
  seed: number;
  mode: string;
  batchSize: number;
  budget: number;
  dataPath: string;
}

export async function overflowDraws(tx: Tx, project: OverflowProject, count: number): Promise<string[]> {
  // Round r (the next to run) draws batch r + 1: overflow goes there, and nowhere further.
  const last = await tx.round.findFirst({ where: { projectId: project.id, status: "done" }, orderBy: { index: "desc" } });
  const index = (last?.index ?? -1) + 2;
  if (!(await tx.batch.findUnique({ where: { projectId_index: { projectId: project.id, index: index - 1 } }, select: { id: true } }))) return [];
  const drawn = await drawnKeys(tx, project.id);
  const existing = await tx.batch.findUnique({ where: { projectId_index: { projectId: project.id, index } }, include: { _count: { select: { tasks: true } } } });
  const room = project.budget - drawn.count;
  const target = existing ? { index, size: existing.size, _count: existing._count } : { index, size: Math.min(project.batchSize, room), _count: { tasks: 0 } };
  const take = Math.min(count, target.size - target._count.tasks, room);
  if (take <= 0) return [];

  const random = Random.from(project.seed, "overflow", target.index, target._count.tasks);
  const latest = last;
  let design: Design = "uniform";
  let draws: { row: number; rowB: number | null; score: number | null; q: number }[];
  if (project.mode === "pairwise") {
    // overflow pairs stay uniform: the uncertain and anchor designs need the surrogate's p(.|x),
    // which a round does not keep; uniform pairs are also the design that measured best (issue #10)
    draws = drawUniformPairs(project.n, take, random, drawn.pairs);
  } else {
    const pool = Int32Array.from({ length: project.n }, (_, i) => i).filter((row) => !drawn.rows.has(row));
    const ranking = latest?.scoresFile ? await readRoundScores(project, latest.scoresFile) : null;
    design = ranking ? ((latest!.config as { design?: Design }).design ?? "uniform") : "uniform";
    const scores = ranking ? Float64Array.from(pool, (row) => (Number.isFinite(ranking[row]) ? ranking[row] : 0)) : new Float64Array(pool.length);
    draws = drawByDesign(ranking ? design : "uniform", pool, scores, take, random).map((d) => ({ ...d, rowB: null }));
  }
  return createBatch(tx, project.id, target.index, null, target.size, draws.map((d) => ({ ...d, design })), true);
}
