import { removeMember } from "@/lib/server/members";
import { route } from "@/lib/server/route";

export const DELETE = route<{ projectId: string; userId: string }>("user", async ({ user, params }) => ({
  members: await removeMember(user, params.projectId, params.userId),
}));
