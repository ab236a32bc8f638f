import { revokeInvite } from "@/lib/server/invites";
import { route } from "@/lib/server/route";

export const DELETE = route<{ projectId: string; inviteId: string }>("user", async ({ user, params }) => revokeInvite(user, params.projectId, params.inviteId));
