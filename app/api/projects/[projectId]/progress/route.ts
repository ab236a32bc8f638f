import { projectSnapshot } from "@/lib/server/events";
import { route } from "@/lib/server/route";

export const GET = route<{ projectId: string }>("user", async ({ user, params }) => projectSnapshot(user, params.projectId));
