/**
 * Invite links: the owner creates one, the invitee opens /invite/TOKEN and either creates an
 * account (role ANNOTATOR) or, signed in, accepts; either way they join as a project ANNOTATOR.
 * Only the token's sha256 is stored, so a leaked database does not leak working links; a link
 * works once, for 7 days.
 */
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { db } from "../db";
import { badRequest, conflict, forbidden, notFound } from "../errors";
import { hashPassword, MIN_PASSWORD_LENGTH } from "../auth/passwords";
import { requireProjectRole } from "../auth/project-access";
import type { SessionUser } from "../auth/session";

export const INVITE_DAYS = 7;

export const createInviteInput = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email("Enter a valid email address.")).optional(),
});

/** A new account's details; ignored when the invitee is signed in. */
export const acceptInviteInput = z.object({
  name: z.string().trim().min(1, "Enter your name.").max(200).optional(),
  email: z.string().trim().toLowerCase().pipe(z.email("Enter a valid email address.")).optional(),
  password: z.string().min(MIN_PASSWORD_LENGTH, `Use a password of at least ${MIN_PASSWORD_LENGTH} characters.`).optional(),
});

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export async function createInvite(user: SessionUser, projectId: string, input: z.infer<typeof createInviteInput>) {
  await requireProjectRole(user, projectId, "OWNER");
  const token = randomBytes(32).toString("base64url");
  const invite = await db().invite.create({
    data: { projectId, tokenHash: hashToken(token), email: input.email ?? null, createdById: user.id, expiresAt: new Date(Date.now() + INVITE_DAYS * 86_400_000) },
  });
  // The token is shown once, here; only its hash is kept.
  return { id: invite.id, path: `/invite/${token}`, email: invite.email, expiresAt: invite.expiresAt };
}

export async function listInvites(user: SessionUser, projectId: string) {
  await requireProjectRole(user, projectId, "OWNER");
  return db().invite.findMany({
    where: { projectId, acceptedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: "desc" },
    select: { id: true, email: true, createdAt: true, expiresAt: true },
  });
}

export async function revokeInvite(user: SessionUser, projectId: string, inviteId: string) {
  await requireProjectRole(user, projectId, "OWNER");
  const { count } = await db().invite.deleteMany({ where: { id: inviteId, projectId, acceptedAt: null } });
  if (!count) throw notFound("No open invite with this id.");
  return { ok: true };
}

async function usableInvite(token: string) {
  const invite = await db().invite.findUnique({ where: { tokenHash: hashToken(token) }, include: { project: { select: { id: true, name: true, state: true } } } });
  if (!invite || invite.project.state !== "ready") throw notFound("This invite link is not valid; ask the project owner for a new one.");
  if (invite.acceptedAt) throw conflict("This invite link was already used; ask the project owner for a new one.");
  if (invite.expiresAt <= new Date()) throw badRequest(`This invite link expired on ${invite.expiresAt.toISOString().slice(0, 10)}; ask the project owner for a new one.`);
  return invite;
}

/** What the invite page shows before accepting. */
export async function describeInvite(token: string) {
  const invite = await usableInvite(token);
  return { projectName: invite.project.name, email: invite.email, expiresAt: invite.expiresAt };
}

/** `readInput` is called only once the token is known good: strangers cannot make the server read a body. */
export async function acceptInvite(token: string, user: SessionUser | null, readInput: () => Promise<z.infer<typeof acceptInviteInput>>) {
  const invite = await usableInvite(token);
  const input = await readInput();
  let userId: string;
  let created = false;
  if (user) {
    if (invite.email && invite.email !== user.email.toLowerCase()) throw forbidden(`This invite is for ${invite.email}; you are signed in as ${user.email}.`);
    userId = user.id;
  } else {
    const email = invite.email ?? input.email;
    if (!input.name || !email || !input.password) throw badRequest("Enter your name, email and a password to create your account.");
    if (input.email && invite.email && input.email !== invite.email) throw badRequest(`This invite is for ${invite.email}.`);
    if (await db().user.findUnique({ where: { email } })) throw conflict(`An account with ${email} exists already; sign in, then open the invite link again.`);
    const passwordHash = await hashPassword(input.password);
    userId = (await db().user.create({ data: { email, name: input.name, passwordHash, role: "ANNOTATOR" } })).id;
    created = true;
  }
  await db()
    .$transaction(async (tx) => {
      // Claimed with a conditional update so that two tabs accepting at once use it only once.
      const { count } = await tx.invite.updateMany({ where: { id: invite.id, acceptedAt: null }, data: { acceptedAt: new Date(), acceptedById: userId } });
      if (count !== 1) throw conflict("This invite link was already used; ask the project owner for a new one.");
      // An existing member keeps their role (an owner opening their own link stays owner).
      await tx.projectMember.upsert({
        where: { projectId_userId: { projectId: invite.projectId, userId } },
        create: { projectId: invite.projectId, userId, role: "ANNOTATOR" },
        update: {},
      });
    })
    .catch(async (error: unknown) => {
      if (created) await db().user.delete({ where: { id: userId } });
      throw error;
    });
  return { projectId: invite.projectId, projectName: invite.project.name, createdAccount: created };
}
