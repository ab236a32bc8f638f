import { encode } from "next-auth/jwt";
import { db } from "../db";
import { hashPassword } from "../auth/passwords";
import type { GlobalRole } from "@/lib/generated/prisma/enums";

/** Test support: users and requests signed as them, with real session tokens. */
let counter = 0;

export async function createTestUser(role: GlobalRole = "RESEARCHER", password = "password-123") {
  counter += 1;
  return db().user.create({
    data: { email: `user${counter}-${Date.now()}@test.local`, name: `User ${counter}`, role, passwordHash: await hashPassword(password) },
  });
}

export async function sessionCookie(user: { id: string; sessionVersion: number }) {
  const token = await encode({ token: { uid: user.id, sv: user.sessionVersion }, secret: process.env.NEXTAUTH_SECRET! });
  return `next-auth.session-token=${token}`;
}

export async function requestAs(user: { id: string; sessionVersion: number } | null, url: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  if (user) headers.set("cookie", await sessionCookie(user));
  if (init.json !== undefined) headers.set("content-type", "application/json");
  return new Request(new URL(url, "http://localhost"), { ...init, headers, body: init.json === undefined ? init.body : JSON.stringify(init.json) });
}

export const routeContext = (params: Record<string, string | string[]> = {}) => ({ params: Promise.resolve(params) });

/** A request authenticated by an access token only (no cookie), as a script sends it. */
export function requestWithToken(token: string, url: string, init: RequestInit & { json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${token}`);
  return requestAs(null, url, { ...init, headers });
}
