import { route } from "@/lib/server/http/route";
import { revokeToken } from "@/lib/server/auth/tokens";

export const DELETE = route<{ tokenId: string }>("user", async ({ user, params }) => revokeToken(user, params.tokenId), { tokens: "session" });
