import { projectSnapshot } from "@/lib/server/live/events";
import { route } from "@/lib/server/http/route";

export const GET = route<{ projectId: string }>("user", async ({ user, params }) => projectSnapshot(user, params.projectId));
