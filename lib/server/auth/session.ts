import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { decode } from "next-auth/jwt";
import { db } from "../db";
import { serverConfig } from "../config";
import { userFromAccessToken, type TokenScope } from "./tokens";
import type { GlobalRole } from "@/lib/generated/prisma/enums";

/** Who is asking, as every service sees it. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: GlobalRole;
}

export const SESSION_COOKIES = ["__Secure-next-auth.session-token", "next-auth.session-token"];

/**
 * The secret that signs session tokens: NEXTAUTH_SECRET, else one generated on first start and
 * kept in the data folder so sessions survive a restart.
 */
export function authSecret(): string {
  if (process.env.NEXTAUTH_SECRET) return process.env.NEXTAUTH_SECRET;
  const file = path.join(serverConfig().dataDir, "auth-secret");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
  }
  process.env.NEXTAUTH_SECRET = fs.readFileSync(file, "utf8").trim();
  return process.env.NEXTAUTH_SECRET;
}

export function sessionTokenFromCookieHeader(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    const name = part.slice(0, eq).trim();
    if (SESSION_COOKIES.includes(name)) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

/**
 * Decoded session tokens, so that a client's every request does not decrypt its token again (an
 * HKDF key derivation and an AES-GCM decryption each time): the claims of a token never change, and
 * an entry is dropped when its token expires. Bounded; the oldest entry goes first.
 */
const DECODED_TOKENS_MAX = 2_000;
const decodedTokens = new Map<string, { uid: string; sv: unknown; expiresAt: number }>();

async function decodeSessionToken(token: string, now = Date.now()): Promise<{ uid: string; sv: unknown } | null> {
  const secret = authSecret();
  const key = `${secret}\n${token}`; // a token is only known under the secret that decoded it
  const known = decodedTokens.get(key);
  if (known && known.expiresAt > now) return known;
  if (known) decodedTokens.delete(key);
  const payload = await decode({ token, secret }).catch(() => null);
  if (!payload || typeof payload.uid !== "string") return null;
  const expiresAt = typeof payload.exp === "number" ? payload.exp * 1000 : now;
  if (expiresAt > now) {
    if (decodedTokens.size >= DECODED_TOKENS_MAX) decodedTokens.delete(decodedTokens.keys().next().value!);
    decodedTokens.set(key, { uid: payload.uid, sv: payload.sv, expiresAt });
  }
  return { uid: payload.uid, sv: payload.sv };
}

/**
 * The signed-in user behind a session token, or null. The token is only trusted while its user
 * exists and its session version matches (looked up on every request, never remembered): a
 * password reset bumps the version and so ends every session of that user.
 */
export async function userFromSessionToken(token: string | null): Promise<SessionUser | null> {
  if (!token) return null;
  const payload = await decodeSessionToken(token);
  if (!payload) return null;
  // plain SQL: it runs on every request, and a model query costs about three times its CPU (issue #18)
  const [user] = await db().$queryRaw<{ id: string; email: string; name: string; role: SessionUser["role"]; sessionVersion: unknown }[]>`
    SELECT "id", "email", "name", "role", "sessionVersion" FROM "User" WHERE "id" = ${payload.uid}`;
  if (!user || Number(user.sessionVersion) !== payload.sv) return null;
  return { id: user.id, email: user.email, name: user.name, role: user.role };
}

/** The token of an `Authorization: Bearer` header; other schemes (a proxy's Basic auth) are not ours. */
export function bearerToken(request: Request): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "");
  return match ? match[1] : null;
}

/** Who is asking: a session's user, or an access token's user with the token's scope. */
export interface Asker {
  user: SessionUser | null;
  /** set when an `Authorization: Bearer` token authenticated the request */
  token: { id: string; scope: TokenScope } | null;
}

export async function askerFromRequest(request: Request): Promise<Asker> {
  // A bearer token alone decides who asks, never the cookie beside it: a bad token is a 401.
  const bearer = bearerToken(request);
  if (bearer !== null) return userFromAccessToken(bearer);
  return { user: await userFromSessionToken(sessionTokenFromCookieHeader(request.headers.get("cookie"))), token: null };
}
