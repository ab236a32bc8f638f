import { db } from "../db";
import { latestRoundResults } from "../evaluation/item-assignments";
import { readAssignments } from "../project-data/arrays";
import type { ProjectFolder } from "../project-data/paths";

/**
 * What the label page's one-class-at-a-time view (`Project.labelBy` "verify", issue #25) orders its
 * "same class?" questions by, as lib/cereal/pairwise/class-verification.ts's `top` order measured
 * it: the item's pseudo-label in the latest finished round (its surrogate's most probable class)
 * first, then the classes most labeled among the items of the item's cluster in the project's first
 * clustering (by name). The per-task part is read from the project-data cache after the lease
 * transaction; the counts come with the class examples, refreshed every few labels, so a next-task
 * call stays as cheap as before.
 */
export interface TaskHint {
  /** the latest round's class for the item (its pseudo-label), or null before any round */
  readonly suggestedClass: number | null;
  /** the item's cluster in the project's first clustering, or null without a clustering */
  readonly cluster: number | null;
}

async function firstClustering(projectId: string) {
  return db().clustering.findFirst({ where: { projectId }, orderBy: { name: "asc" }, select: { file: true } });
}

/** The hint of each item, in the order given. */
export async function taskHints(projectId: string, project: ProjectFolder, itemIndexes: readonly number[]): Promise<TaskHint[]> {
  const latest = await latestRoundResults(projectId, project);
  const clustering = await firstClustering(projectId);
  const assignments = clustering ? await readAssignments(project, clustering, { shared: true }) : null;
  return itemIndexes.map((i) => {
    const suggested = latest ? Math.round(latest.results[i * 2]) : -1;
    return { suggestedClass: suggested >= 0 ? suggested : null, cluster: assignments ? assignments[i] : null };
  });
}

/** [cluster, class, labels] of every class labeled in a cluster of the project's first clustering (withdrawn labels, skips and unsure left out). */
export async function clusterClassCounts(projectId: string, project: ProjectFolder): Promise<[number, number, number][]> {
  const clustering = await firstClustering(projectId);
  if (!clustering) return [];
  const assignments = await readAssignments(project, clustering, { shared: true });
  const rows = await db().$queryRaw<{ itemIndex: unknown; classIndex: unknown; n: unknown }[]>`
    SELECT t."itemIndex" AS "itemIndex", l."classIndex" AS "classIndex", COUNT(*) AS "n"
    FROM "Label" l JOIN "Task" t ON t."id" = l."taskId"
    WHERE l."projectId" = ${projectId} AND l."kind" = 'label' AND l."withdrawn" = false AND l."classIndex" IS NOT NULL
    GROUP BY t."itemIndex", l."classIndex"`;
  const counts = new Map<string, [number, number, number]>();
  for (const row of rows) {
    const cluster = assignments[Number(row.itemIndex)];
    const classIndex = Number(row.classIndex);
    const key = `${cluster}:${classIndex}`;
    const entry = counts.get(key) ?? [cluster, classIndex, 0];
    entry[2] += Number(row.n);
    counts.set(key, entry);
  }
  return [...counts.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}
