import { stringify } from "csv-stringify/sync";
import { db } from "../db";
import { majority } from "../labeling/labels";

/**
 * The labeled subset as the rounds saw it: one row per settled task in draw order (the order a
 * round freezes them in, rounds/round-steps.ts), with its value (the majority, or the owner's
 * resolution of a tie), its draw record and the first round that used it. Round r estimated
 * from the rows with used_by_round <= r, so `cereal recompute` rebuilds each round's input from
 * this file alone. A corrected label is flagged: a round that ran before the correction saw the old value.
 */
export const LABELED_SUBSET_COLUMNS = [
  "item_index",
  "item_b_index",
  "class_index",
  "answer",
  "used_by_round",
  "design",
  "score",
  "q",
  "draw_order",
  "draw_round",
  "corrected",
] as const;

/** The CSV, and how many of its rows carry a corrected label. */
export async function labeledSubsetCsv(projectId: string): Promise<{ csv: string; corrected: number }> {
  const tasks = await db().task.findMany({
    where: { projectId, done: true },
    orderBy: { drawOrder: "asc" },
    include: {
      batch: { select: { index: true } },
      labels: { where: { withdrawn: false }, select: { kind: true, classIndex: true, answer: true, usedByRound: true, _count: { select: { changes: { where: { action: "correct" } } } } } },
    },
  });
  const rows = tasks.flatMap((task) => {
    const value = task.resolvedClassIndex !== null ? String(task.resolvedClassIndex) : (task.resolvedAnswer ?? majority(task.labels));
    if (value === null || value === "unsure") return [];
    const used = task.labels.map((l) => l.usedByRound).filter((r): r is number => r !== null);
    const pair = task.itemIndexB !== null;
    return [
      [
        task.itemIndex,
        task.itemIndexB ?? "",
        pair ? "" : Number(value),
        pair ? value : "",
        used.length ? Math.min(...used) : "",
        task.design,
        task.score ?? "",
        task.q,
        task.drawOrder,
        task.batch.index,
        task.labels.some((l) => l._count.changes > 0),
      ],
    ];
  });
  return { csv: stringify([[...LABELED_SUBSET_COLUMNS], ...rows], { cast: { boolean: (b) => String(b) } }), corrected: rows.filter((row) => row.at(-1) === true).length };
}
