import { AsyncLocalStorage } from "node:async_hooks";
import { db } from "../db";
import { forbidden, notFound } from "../errors";
import type { SessionUser } from "./session";
import type { ProjectRole } from "@/lib/generated/prisma/enums";

/**
 * The per-project check every project service starts with: the user must be a member, and an
 * owner where `role` is OWNER. A missing project is 404; an existing one the user is not part of
 * is 403 (ARCHITECTURE.md: an annotator never sees another project).
 * Inside `rememberingMemberships` (route() runs every handler in it) a user's membership of a
 * project is looked up once: the route checks it before reading the input and the service again.
 */
export async function requireProjectRole(user: SessionUser, projectId: string, role?: ProjectRole) {
  const remembered = memberships.getStore();
  const key = `${user.id} ${projectId}`;
  let lookup = remembered?.get(key);
  if (!lookup) {
    lookup = membershipRole(user.id, projectId);
    remembered?.set(key, lookup);
  }
  const membership = await lookup;
  if (role === "OWNER" && membership !== "OWNER") throw forbidden("Only the project's owner can do this.");
  return membership;
}

const memberships = new AsyncLocalStorage<Map<string, Promise<ProjectRole>>>();

/** Runs `fn` remembering the memberships it checks until it settles (one request's worth). */
export function rememberingMemberships<T>(fn: () => Promise<T>): Promise<T> {
  return memberships.run(new Map(), fn);
}

async function membershipRole(userId: string, projectId: string): Promise<ProjectRole> {
  // the member row alone in the common case; the project is looked up only to tell 404 from 403
  // plain SQL: every project route asks (a model query costs about three times its CPU; issue #18)
  const [membership] = await db().$queryRaw<{ role: ProjectRole }[]>`SELECT "role" FROM "ProjectMember" WHERE "projectId" = ${projectId} AND "userId" = ${userId}`;
  if (membership) return membership.role;
  if (!(await db().project.findUnique({ where: { id: projectId }, select: { id: true } }))) throw notFound("No project with this id.");
  throw forbidden("You are not a member of this project.");
}
