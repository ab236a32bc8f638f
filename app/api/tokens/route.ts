import { jsonBody, route } from "@/lib/server/http/route";
import { createToken, createTokenInput, listTokens } from "@/lib/server/auth/tokens";

// Token management takes a signed-in session: a token cannot make or list tokens.
export const GET = route("user", async ({ user }) => ({ tokens: await listTokens(user) }), { tokens: "session" });
/** `{ id, token, ... }`: the only response that carries the token's secret */
export const POST = route("user", async ({ user, request }) => createToken(user, await jsonBody(request, createTokenInput)), { tokens: "session" });
