import { resolveTie, resolveTieInput } from "@/lib/server/labels";
import { jsonBody, route } from "@/lib/server/route";

export const POST = route<{ projectId: string; taskId: string }>("owner", async ({ user, params, request }) =>
  resolveTie(user, params.projectId, params.taskId, await jsonBody(request, resolveTieInput)),
);
