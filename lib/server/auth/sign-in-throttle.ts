import { db } from "../db";
import { AppError } from "../errors";

/**
 * Slows down password guessing. Failed sign-ins are counted per key ("email:..." and "ip:...",
 * the connection's address as bin/start.ts sets it) in a 15-minute window. Past its free
 * failures (4 for an account; 20 for an address, which many people may share), each further
 * failure blocks the key for 30 s x 2^(extra - 1): an account for at most 15 minutes, an address
 * for at most 1 minute, so that one person's failures never lock everyone behind a shared
 * address out for long, while guessing across accounts stays at one try a minute. A success
 * clears the account's count. Access tokens use the same rule per "token:<prefix>" key (10 free
 * failures, at most 15 minutes; auth/tokens.ts).
 */
export const FREE_FAILURES = { email: 4, ip: 20, token: 10 } as const;
export const MAX_BLOCK_MS = { email: 15 * 60_000, ip: 60_000, token: 15 * 60_000 } as const;
type ThrottleKind = keyof typeof FREE_FAILURES;
const WINDOW_MS = 15 * 60_000;
const BASE_BLOCK_MS = 30_000;

export function throttleKeys(email: string, ip: string | null): string[] {
  const keys = [`email:${email.trim().toLowerCase()}`];
  if (ip) keys.push(`ip:${ip}`);
  return keys;
}

/** Throws 429 when any key is blocked now; `what` names the failures in the message. */
export async function assertNotThrottled(keys: string[], now = new Date(), what = "sign-ins"): Promise<void> {
  const rows = await db().signInThrottle.findMany({ where: { key: { in: keys } } });
  const blockedUntil = rows
    .map((r) => r.blockedUntil?.getTime() ?? 0)
    .reduce((a, b) => Math.max(a, b), 0);
  if (blockedUntil > now.getTime()) {
    const seconds = Math.ceil((blockedUntil - now.getTime()) / 1000);
    throw new AppError("too_many_requests", `Too many failed ${what}. Wait ${seconds} s and try again.`);
  }
}

export async function recordFailure(keys: string[], now = new Date()): Promise<void> {
  for (const key of keys) {
    const row = await db().signInThrottle.findUnique({ where: { key } });
    const fresh = !row || now.getTime() - row.windowStartAt.getTime() > WINDOW_MS;
    const failures = fresh ? 1 : row.failures + 1;
    const kind = key.slice(0, key.indexOf(":")) as ThrottleKind;
    const free = FREE_FAILURES[kind];
    const blockMs = failures > free ? Math.min(MAX_BLOCK_MS[kind], BASE_BLOCK_MS * 2 ** (failures - free - 1)) : 0;
    const data = {
      failures,
      windowStartAt: fresh ? now : row.windowStartAt,
      blockedUntil: blockMs ? new Date(now.getTime() + blockMs) : null,
    };
    await db().signInThrottle.upsert({ where: { key }, create: { key, ...data }, update: data });
  }
}

export async function clearFailures(email: string): Promise<void> {
  await db().signInThrottle.deleteMany({ where: { key: throttleKeys(email, null)[0] } });
}
