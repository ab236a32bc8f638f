import { forbidden } from "../errors";
import type { TokenScope } from "../auth/tokens";
import { SAFE_METHODS } from "./same-origin";

/** What a route lets access tokens do besides reading (route.ts `RouteOptions.tokens`). */
export type TokenRule = "label" | "session";

/**
 * The scope check route() applies to a token-authenticated request, after who is asking is
 * known and before anything else: `read` reads, `label` reads and answers tasks, `write` does
 * everything its user may do except token and user management. The user's own rights are
 * checked after this, as for a session.
 */
export function assertTokenScope(scope: TokenScope, method: string, rule: TokenRule | undefined): void {
  if (rule === "session") throw forbidden("Access tokens cannot manage tokens or users; sign in to the app to do this.");
  if (SAFE_METHODS.has(method) || scope === "write") return;
  if (scope === "label" && rule === "label") return;
  throw forbidden(
    scope === "read"
      ? `This token has the read scope, which only reads (GET); a ${method} needs a token with the ${rule === "label" ? "label or write" : "write"} scope.`
      : `This token has the label scope, which reads and answers tasks; this ${method} needs a token with the write scope.`,
  );
}
