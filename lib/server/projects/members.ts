/**
 * Project members: the owner adds existing users by email (as annotators, or as co-owners) and
 * removes them. A project always keeps at least one owner, or nobody could manage it.
 */
import { z } from "zod";
import { db } from "../db";
import { conflict, notFound } from "../errors";
import { requireProjectRole } from "../auth/project-access";
import type { SessionUser } from "../auth/session";

export const addMemberInput = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email("Enter a valid email address.")),
  role: z.enum(["OWNER", "ANNOTATOR"]).default("ANNOTATOR"),
});

export async function listMembers(user: SessionUser, projectId: string) {
  await requireProjectRole(user, projectId, "OWNER");
  const members = await db().projectMember.findMany({
    where: { projectId },
    orderBy: { createdAt: "asc" },
    select: { role: true, createdAt: true, user: { select: { id: true, name: true, email: true } } },
  });
  return members.map((m) => ({ ...m.user, role: m.role, since: m.createdAt }));
}

export async function addMember(user: SessionUser, projectId: string, input: z.infer<typeof addMemberInput>) {
  await requireProjectRole(user, projectId, "OWNER");
  const target = await db().user.findUnique({ where: { email: input.email }, select: { id: true, role: true } });
  if (!target) throw notFound(`No account uses ${input.email}; create an invite link and send it to them instead.`);
  if (input.role === "OWNER" && target.role === "ANNOTATOR") throw conflict(`${input.email} is an annotator account; only researchers and admins can own projects.`);
  if (await db().projectMember.findUnique({ where: { projectId_userId: { projectId, userId: target.id } } }))
    throw conflict(`${input.email} is already a member of this project.`);
  await db().projectMember.create({ data: { projectId, userId: target.id, role: input.role } });
  return listMembers(user, projectId);
}

export async function removeMember(user: SessionUser, projectId: string, userId: string) {
  await requireProjectRole(user, projectId, "OWNER");
  const member = await db().projectMember.findUnique({ where: { projectId_userId: { projectId, userId } } });
  if (!member) throw notFound("This user is not a member of the project.");
  if (member.role === "OWNER" && (await db().projectMember.count({ where: { projectId, role: "OWNER" } })) === 1)
    throw conflict("This is the project's last owner; add another owner first, or delete the project.");
  // Their labels stay: they were given in good faith and may already be in an estimate. Their
  // unanswered leases go back to the pool at once.
  await db().$transaction([
    db().lease.deleteMany({ where: { userId, task: { projectId } } }),
    db().projectMember.delete({ where: { id: member.id } }),
  ]);
  return listMembers(user, projectId);
}
