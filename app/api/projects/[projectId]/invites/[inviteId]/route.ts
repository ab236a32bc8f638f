import { revokeInvite } from "@/lib/server/projects/invites";
import { route } from "@/lib/server/http/route";

export const DELETE = route<{ projectId: string; inviteId: string }>("user", async ({ user, params }) => revokeInvite(user, params.projectId, params.inviteId));
