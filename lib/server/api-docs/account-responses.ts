import { z } from "zod";
import { TOKEN_SCOPES } from "../auth/tokens";
import { isoDateTime } from "./wire";

/** Responses of the user, token, invite and operations routes. */
const globalRole = z.enum(["ADMIN", "RESEARCHER", "ANNOTATOR"]);

export const sessionUser = z.strictObject({ id: z.string(), email: z.string(), name: z.string(), role: globalRole });
export const meResponse = z.strictObject({ user: sessionUser });

const publicUser = z.strictObject({ id: z.string(), email: z.string(), name: z.string(), role: globalRole, createdAt: isoDateTime });
export const usersResponse = z.strictObject({ users: z.array(publicUser) });
export const userResponse = z.strictObject({ user: publicUser });

export const accessToken = z.strictObject({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe("the token's public part: cereal_<prefix>_…"),
  scope: z.enum(TOKEN_SCOPES),
  createdAt: isoDateTime,
  expiresAt: isoDateTime.nullable(),
  lastUsedAt: isoDateTime.nullable().describe("to the minute"),
  revokedAt: isoDateTime.nullable(),
});
export const tokensResponse = z.strictObject({ tokens: z.array(accessToken) });
export const createdTokenResponse = accessToken.extend({ token: z.string().describe("the whole token, shown only in this response") });

export const inviteDescription = z.strictObject({ invite: z.strictObject({ projectName: z.string(), email: z.string().nullable(), expiresAt: isoDateTime }) });
export const inviteAccepted = z.strictObject({ accepted: z.strictObject({ projectId: z.string(), projectName: z.string(), createdAccount: z.boolean() }) });

export const healthResponse = z.strictObject({ status: z.literal("ok") });
const laneQueue = z.strictObject({ depth: z.number().int(), oldestAgeSeconds: z.number() });
export const readinessResponse = z.strictObject({
  ready: z.boolean(),
  checks: z.strictObject({ database: z.boolean(), migrations: z.boolean(), worker: z.boolean() }),
  queue: z.record(z.string(), laneQueue).nullable().describe("queued jobs per lane"),
});
