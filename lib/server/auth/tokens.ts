import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { db, type Tx } from "../db";
import { notFound, unauthenticated } from "../errors";
import type { SessionUser } from "./session";
import { assertNotThrottled, recordFailure } from "./sign-in-throttle";

/**
 * Personal access tokens: `cereal_<prefix>_<secret>`, a 48-bit public prefix (it names the token
 * in lists and in the failure throttle) and a 256-bit secret. Only the SHA-256 of the whole
 * token is stored: the token is random and long, so a fast hash is enough (nothing to brute-force
 * like a password). A token acts as its user with the user's rights at the moment of each request
 * (route() reads role and membership afresh), narrowed by its scope (http/token-scope.ts).
 */
export const TOKEN_SCOPES = ["read", "label", "write"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

const TOKEN_PATTERN = /^cereal_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;
/** lastUsedAt is written at most this often per token, so that a busy script does not write on every request */
const LAST_USED_RESOLUTION_MS = 60_000;

export const createTokenInput = z.object({
  name: z.string().trim().min(1, "Give the token a name (what script or machine uses it).").max(100, "Use a name of at most 100 characters."),
  scope: z.enum(TOKEN_SCOPES, "Scope must be read, label or write."),
  expiresInDays: z.number().int("expiresInDays must be a whole number of days.").min(1).max(3650).optional(),
});

export interface AccessTokenView {
  id: string;
  name: string;
  prefix: string;
  scope: TokenScope;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const viewFields = { id: true, name: true, prefix: true, scope: true, createdAt: true, expiresAt: true, lastUsedAt: true, revokedAt: true } as const;
/** the scope column holds one of TOKEN_SCOPES (createTokenInput checked it) */
const asView = <T extends { scope: string }>(row: T) => ({ ...row, scope: row.scope as TokenScope });

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** Makes a token for the user; the returned `token` is the only time its secret is seen. */
export async function createToken(user: SessionUser, input: z.infer<typeof createTokenInput>, now = new Date()) {
  const prefix = randomBytes(6).toString("hex");
  const token = `cereal_${prefix}_${randomBytes(32).toString("base64url")}`;
  const expiresAt = input.expiresInDays === undefined ? null : new Date(now.getTime() + input.expiresInDays * 86_400_000);
  const row = await db().accessToken.create({
    data: { userId: user.id, name: input.name, prefix, tokenHash: hashToken(token), scope: input.scope, expiresAt },
    select: viewFields,
  });
  return { ...asView(row), token };
}

/** The user's tokens, newest first, revoked ones included (they show when they were revoked). */
export async function listTokens(user: SessionUser): Promise<AccessTokenView[]> {
  const rows = await db().accessToken.findMany({ where: { userId: user.id }, select: viewFields, orderBy: { createdAt: "desc" } });
  return rows.map(asView);
}

export async function revokeToken(user: SessionUser, tokenId: string, now = new Date()): Promise<AccessTokenView> {
  const row = await db().accessToken.findFirst({ where: { id: tokenId, userId: user.id }, select: { revokedAt: true } });
  if (!row) throw notFound("You have no token with this id.");
  const updated = await db().accessToken.update({ where: { id: tokenId }, data: { revokedAt: row.revokedAt ?? now }, select: viewFields });
  return asView(updated);
}

/** A password reset (and any future deactivation) revokes every token of the user, in its transaction. */
export async function revokeUserTokens(tx: Tx, userId: string, now = new Date()): Promise<void> {
  await tx.accessToken.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } });
}

/**
 * Who a bearer token acts for, with its scope. Every refusal is a 401 that says why; wrong
 * secrets for a real prefix count against that prefix (sign-in-throttle.ts), and a blocked prefix
 * is a 429 before the secret is looked at.
 */
export async function userFromAccessToken(token: string, now = new Date()): Promise<{ user: SessionUser; token: { id: string; scope: TokenScope } }> {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) throw unauthenticated("This is not a Cereal Studio access token (they look like cereal_<12 hex>_<43 characters>); make one under your name > Access tokens.");
  const key = `token:${match[1]}`;
  await assertNotThrottled([key], now, "requests with this token");
  const row = await db().accessToken.findUnique({ where: { prefix: match[1] }, include: { user: true } });
  if (!row) throw unauthenticated("No such access token; it may have been deleted with its user. Make a new one.");
  if (!timingSafeEqual(Buffer.from(row.tokenHash, "hex"), Buffer.from(hashToken(token), "hex"))) {
    await recordFailure([key], now);
    throw unauthenticated("This access token is not valid; copy it again or make a new one.");
  }
  if (row.revokedAt) throw unauthenticated(`This access token was revoked on ${row.revokedAt.toISOString()}; make a new one.`);
  if (row.expiresAt && row.expiresAt <= now) throw unauthenticated(`This access token expired on ${row.expiresAt.toISOString()}; make a new one.`);
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db().accessToken.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  const { user } = row;
  return { user: { id: user.id, email: user.email, name: user.name, role: user.role }, token: { id: row.id, scope: asView(row).scope } };
}
