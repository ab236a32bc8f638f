import { db } from "./db";
import { requireProjectRole } from "./project-access";
import type { SessionUser } from "./session";

/** Projects the user is a member of, newest first, with their role in each. */
export async function listProjects(user: SessionUser) {
  const memberships = await db().projectMember.findMany({
    where: { userId: user.id, project: { state: "ready" } },
    orderBy: { project: { createdAt: "desc" } },
    select: {
      role: true,
      project: { select: { id: true, name: true, description: true, bundleName: true, n: true, d: true, mode: true, budget: true, paused: true, createdAt: true } },
    },
  });
  return memberships.map((m) => ({ ...m.project, role: m.role }));
}

export async function getProject(user: SessionUser, projectId: string) {
  const role = await requireProjectRole(user, projectId);
  const project = await db().project.findUniqueOrThrow({
    where: { id: projectId },
    include: {
      members: { select: { role: true, user: { select: { id: true, name: true, email: true } } }, orderBy: { createdAt: "asc" } },
      classes: { orderBy: { index: "asc" }, select: { index: true, name: true, description: true } },
      clusterings: { orderBy: { name: "asc" }, select: { id: true, name: true, k: true, space: true, softFile: true } },
    },
  });
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
    guidelines: project.guidelines,
    classes: project.classes,
    clusterings: project.clusterings.map((c) => ({ id: c.id, name: c.name, k: c.k, space: c.space, soft: c.softFile !== null })),
    createdAt: project.createdAt,
    role,
    members: project.members.map((m) => ({ ...m.user, role: m.role })),
  };
}
