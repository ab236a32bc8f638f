import { z } from "zod";
import { db, transaction } from "../db";
import { AppError, forbidden, notFound } from "../errors";
import { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from "./passwords";
import type { SessionUser } from "./session";
import { assertNotThrottled, clearFailures, recordFailure, throttleKeys } from "./sign-in-throttle";
import { revokeUserTokens } from "./tokens";

const email = z.string().trim().toLowerCase().pipe(z.email("Enter a valid email address."));
const password = z.string().min(MIN_PASSWORD_LENGTH, `Use a password of at least ${MIN_PASSWORD_LENGTH} characters.`);
const role = z.enum(["ADMIN", "RESEARCHER", "ANNOTATOR"], "Role must be ADMIN, RESEARCHER or ANNOTATOR.");

export const createUserInput = z.object({
  email,
  name: z.string().trim().min(1, "Enter a name.").max(200),
  password,
  role: role.default("ANNOTATOR"),
});
export const changeRoleInput = z.object({ role });
export const resetPasswordInput = z.object({ password });

const publicUser = { id: true, email: true, name: true, role: true, createdAt: true } as const;

function requireAdmin(actor: SessionUser) {
  if (actor.role !== "ADMIN") throw forbidden("Only an administrator can manage users.");
}

/** Checks a password; counts failures against the account and the address (sign-in-throttle.ts). */
export async function signInWithPassword(rawEmail: string, rawPassword: string, ip: string | null) {
  const keys = throttleKeys(rawEmail, ip);
  await assertNotThrottled(keys);
  const user = await db().user.findUnique({ where: { email: rawEmail.trim().toLowerCase() } });
  // Verify against a dummy hash when the user is unknown, so timing does not reveal accounts.
  const ok = user ? await verifyPassword(user.passwordHash, rawPassword) : await verifyPassword(DUMMY_HASH, rawPassword);
  if (!user || !ok) {
    await recordFailure(keys);
    throw new AppError("unauthenticated", "Wrong email or password.");
  }
  await clearFailures(rawEmail);
  return user;
}
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$5E/iYvjfibh0nredWshMoA$nL+QDP72Riq2a6ObuXvH1GOAYgCIX65bbvTmHLI7HYQ";

export async function listUsers(actor: SessionUser) {
  requireAdmin(actor);
  return db().user.findMany({ select: publicUser, orderBy: { createdAt: "asc" } });
}

export async function createUser(actor: SessionUser, input: z.infer<typeof createUserInput>) {
  requireAdmin(actor);
  const passwordHash = await hashPassword(input.password);
  return db().user.create({ data: { email: input.email, name: input.name, role: input.role, passwordHash }, select: publicUser });
}

export async function changeRole(actor: SessionUser, userId: string, input: z.infer<typeof changeRoleInput>) {
  requireAdmin(actor);
  if (userId === actor.id && input.role !== "ADMIN") {
    throw new AppError("conflict", "You cannot remove your own administrator role; ask another administrator.");
  }
  await findUser(userId);
  return db().user.update({ where: { id: userId }, data: { role: input.role }, select: publicUser });
}

/** Sets a new password and ends every session of that user (session version bump) and revokes their access tokens. */
export async function resetPassword(actor: SessionUser, userId: string, input: z.infer<typeof resetPasswordInput>) {
  requireAdmin(actor);
  await findUser(userId);
  const passwordHash = await hashPassword(input.password);
  await transaction(async (tx) => {
    await tx.user.update({ where: { id: userId }, data: { passwordHash, sessionVersion: { increment: 1 } } });
    await revokeUserTokens(tx, userId);
  });
  await clearFailures((await findUser(userId)).email);
  return { ok: true };
}

async function findUser(userId: string) {
  const user = await db().user.findUnique({ where: { id: userId } });
  if (!user) throw notFound("No user with this id.");
  return user;
}
