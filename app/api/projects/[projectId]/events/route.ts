import { projectSnapshot, snapshotStream } from "@/lib/server/live/events";
import { route } from "@/lib/server/http/route";

export const dynamic = "force-dynamic";

export const GET = route<{ projectId: string }>("user", async ({ user, params, request }) => {
  const first = await projectSnapshot(user, params.projectId); // authorizes before the stream opens
  return snapshotStream(user, params.projectId, first, request.signal);
});
