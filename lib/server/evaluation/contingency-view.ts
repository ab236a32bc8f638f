import { z } from "zod";
import { apMetric } from "@/lib/metrics";
import { db } from "../db";
import { badRequest } from "../errors";
import { clusterAssignments, itemClasses } from "./item-assignments";
import { requireProjectRole } from "../auth/project-access";
import type { SessionUser } from "../auth/session";

export const contingencyQuery = z.object({ clustering: z.string().min(1, "Name a clustering: ?clustering=NAME.") });

/**
 * The contingency table a clustering is estimated from (owner): reference classes (rows, the
 * lib/metrics convention) x clusters, counted over the labels plus the latest round's
 * pseudo-labels (its results file holds both); before any round, over the labels alone. Each
 * class's largest cell is the AP metric's argmax L_i, the cells the dashboard boxes.
 */
export async function contingencyView(user: SessionUser, projectId: string, clusteringName: string) {
  await requireProjectRole(user, projectId, "OWNER");
  const project = await db().project.findUniqueOrThrow({
    where: { id: projectId },
    select: { dataPath: true, n: true, mode: true, classes: { orderBy: { index: "asc" }, select: { index: true, name: true } } },
  });
  if (project.mode === "pairwise") throw badRequest("A pairwise project has no class labels to cross with clusters.");
  const clustering = await clusterAssignments(projectId, project, clusteringName);
  const assignments = clustering.assignments;

  const classOf = await itemClasses(projectId, project);
  const C = project.classes.length;
  const K = clustering.k;
  // the items with a class (label or pseudo-label) and a cluster in range, counted in one pass over N
  const counts = new Float64Array(C * K);
  for (let i = 0; i < project.n; i++) {
    const c = classOf.classOf(i);
    const k = assignments[i];
    if (c >= 0 && c < C && k >= 0 && k < K) counts[c * K + k]++;
  }
  let labeled = 0;
  for (const [i, c] of classOf.labeled) if (c >= 0 && c < C && assignments[i] >= 0 && assignments[i] < K) labeled++;
  const cells = Array.from({ length: C }, (_, c) => Array.from(counts.subarray(c * K, (c + 1) * K)));
  const counted = counts.reduce((sum, v) => sum + v, 0);
  const pseudo = counted - labeled;
  const rowMaxima = cells.map((row) => {
    const max = Math.max(...row);
    return max > 0 ? row.flatMap((v, k) => (v === max ? [k] : [])) : [];
  });
  const { associativity, peakiness, ap } = apMetric(cells);
  return {
    clustering: clustering.name,
    k: K,
    classes: project.classes.map((c) => c.name),
    source: classOf.source,
    labeled,
    pseudoLabeled: pseudo,
    cells,
    rowMaxima,
    associativity,
    peakiness,
    ap,
  };
}
