import { contingency, metricsFromTable, type MetricValues } from "@/lib/metrics";
import { db } from "../db";
import { requireProjectRole } from "../auth/project-access";
import { readAssignments, readReferenceLabels } from "../project-data/arrays";
import type { SessionUser } from "../auth/session";

/**
 * Every metric key of each clustering against the bundle's reference labels (labels.npy): the
 * dashed "true value" line. Owner-only (ARCHITECTURE.md). Neither the labels nor the clusterings
 * change after import, so the values are computed once per project and clustering set and kept
 * in memory (a 1M-item table costs about a second).
 */
const cache = new Map<string, { key: string; values: Record<string, MetricValues> }>();

export async function projectTrueMetrics(user: SessionUser, projectId: string) {
  await requireProjectRole(user, projectId, "OWNER");
  const project = await db().project.findUniqueOrThrow({
    where: { id: projectId },
    select: { dataPath: true, hasReferenceLabels: true, clusterings: { orderBy: { name: "asc" }, select: { id: true, name: true, file: true } } },
  });
  if (!project.hasReferenceLabels) return { available: false, metrics: {} as Record<string, MetricValues> };
  const key = project.clusterings.map((c) => c.id).join(",");
  const hit = cache.get(projectId);
  if (hit?.key === key) return { available: true, metrics: hit.values };

  const truth = await readReferenceLabels(project);
  const values: Record<string, MetricValues> = {};
  for (const c of project.clusterings) {
    values[c.name] = metricsFromTable(contingency(truth, await readAssignments(project, c)));
  }
  cache.set(projectId, { key, values });
  return { available: true, metrics: values };
}
