import { removeMember } from "@/lib/server/projects/members";
import { route } from "@/lib/server/http/route";

export const DELETE = route<{ projectId: string; userId: string }>("user", async ({ user, params }) => ({
  members: await removeMember(user, params.projectId, params.userId),
}));
