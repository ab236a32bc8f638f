import { z } from "zod";
import { db } from "../db";
import { badRequest } from "../errors";
import { requireProjectRole } from "../auth/project-access";
import { latestEstimates } from "../project-data/estimate-history";
import { removeProjectFolder } from "../project-data/folder";
import type { SessionUser } from "../auth/session";

/** Labels that count toward the budget (ARCHITECTURE.md): given, not skipped, unsure or withdrawn. */
const COUNTED_LABEL = { kind: "label", withdrawn: false } as const;

/**
 * Projects the user is a member of, newest first, with their role in each, the labels given
 * against the budget, and the latest round's NMI estimates where the user may see estimates
 * (owners, or annotators when the owner allows it).
 */
export async function listProjects(user: SessionUser) {
  const memberships = await db().projectMember.findMany({
    where: { userId: user.id, project: { state: "ready" } },
    orderBy: { project: { createdAt: "desc" } },
    select: {
      role: true,
      project: {
        select: { id: true, name: true, description: true, bundleName: true, n: true, d: true, mode: true, budget: true, paused: true, annotatorsSeeEstimates: true, createdAt: true },
      },
    },
  });
  const ids = memberships.map((m) => m.project.id);
  const counts = await db().label.groupBy({ by: ["projectId"], where: { projectId: { in: ids }, ...COUNTED_LABEL }, _count: { _all: true } });
  const labels = new Map(counts.map((c) => [c.projectId, c._count._all]));
  return Promise.all(
    memberships.map(async ({ role, project: { annotatorsSeeEstimates, ...project } }) => ({
      ...project,
      role,
      labels: labels.get(project.id) ?? 0,
      lastEstimate: role === "OWNER" || annotatorsSeeEstimates ? await lastEstimate(project.id) : null,
    })),
  );
}

async function lastEstimate(projectId: string) {
  const round = await latestEstimates(projectId, { metric: "nmi" });
  if (!round || round.estimates.length === 0) return null;
  return {
    round: round.index,
    nLabels: round.nLabels,
    metric: "nmi" as const,
    values: round.estimates.map((e) => ({ clustering: e.clustering, value: e.value })).sort((a, b) => b.value - a.value),
  };
}

/**
 * A project as its members see it. Owner-only parts (ARCHITECTURE.md): the true metrics from the
 * bundle and whether it has reference labels; an annotator's answer never includes them.
 */
export async function getProject(user: SessionUser, projectId: string) {
  const role = await requireProjectRole(user, projectId);
  const owner = role === "OWNER";
  const project = await db().project.findUniqueOrThrow({
    where: { id: projectId },
    include: {
      members: { select: { role: true, user: { select: { id: true, name: true, email: true } } }, orderBy: { createdAt: "asc" } },
      classes: { orderBy: { index: "asc" }, select: { index: true, name: true, description: true } },
      clusterings: { orderBy: { name: "asc" }, select: { id: true, name: true, k: true, space: true, softFile: true, trueMetrics: true } },
    },
  });
  const labels = await db().label.count({ where: { projectId, ...COUNTED_LABEL } });
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    bundleName: project.bundleName,
    n: project.n,
    d: project.d,
    itemKind: project.itemKind,
    mode: project.mode,
    classMode: project.classMode,
    labelBy: project.labelBy,
    guidelines: project.guidelines,
    budget: project.budget,
    paused: project.paused,
    annotatorsSeeEstimates: project.annotatorsSeeEstimates,
    labels,
    classes: project.classes,
    clusterings: project.clusterings.map((c) => ({
      id: c.id,
      name: c.name,
      k: c.k,
      space: c.space,
      soft: c.softFile !== null,
      ...(owner ? { trueMetrics: (c.trueMetrics as Record<string, number> | null) ?? null } : {}),
    })),
    ...(owner ? { hasReferenceLabels: project.hasReferenceLabels } : {}),
    createdAt: project.createdAt,
    role,
    // Annotators see who else works on the project, not their email addresses.
    members: project.members.map((m) => ({ ...m.user, email: role === "OWNER" ? m.user.email : null, role: m.role })),
  };
}

export const deleteProjectInput = z.object({ confirmName: z.string() });

/**
 * Deletes a project, its rows (cascade) and its folder. The owner types the project's name, so a
 * stray click or a wrong id cannot delete the wrong project.
 */
export async function deleteProject(user: SessionUser, projectId: string, input: z.infer<typeof deleteProjectInput>) {
  await requireProjectRole(user, projectId, "OWNER");
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { name: true, dataPath: true } });
  if (input.confirmName.trim() !== project.name.trim()) throw badRequest(`Type the project's name, ${project.name}, to confirm.`);
  await db().project.delete({ where: { id: projectId } });
  await removeProjectFolder(project);
  return { ok: true };
}
