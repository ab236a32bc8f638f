import { db } from "../db";
import { forbidden, notFound } from "../errors";
import type { SessionUser } from "./session";
import type { ProjectRole } from "@/lib/generated/prisma/enums";

/**
 * The per-project check every project service starts with: the user must be a member, and an
 * owner where `role` is OWNER. A missing project is 404; an existing one the user is not part of
 * is 403 (ARCHITECTURE.md: an annotator never sees another project).
 */
export async function requireProjectRole(user: SessionUser, projectId: string, role?: ProjectRole) {
  const project = await db().project.findUnique({
    where: { id: projectId },
    select: { id: true, members: { where: { userId: user.id }, select: { role: true } } },
  });
  if (!project) throw notFound("No project with this id.");
  const membership = project.members[0];
  if (!membership) throw forbidden("You are not a member of this project.");
  if (role === "OWNER" && membership.role !== "OWNER") throw forbidden("Only the project's owner can do this.");
  return membership.role;
}
