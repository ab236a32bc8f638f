import { projectSnapshot, snapshotStream } from "@/lib/server/events";
import { route } from "@/lib/server/route";

export const dynamic = "force-dynamic";

export const GET = route<{ projectId: string }>("user", async ({ user, params, request }) => {
  await projectSnapshot(user, params.projectId); // authorizes before the stream opens
  return snapshotStream(user, params.projectId, request.signal);
});
