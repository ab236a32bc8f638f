import { resolveTie, resolveTieInput } from "@/lib/server/labeling/labels";
import { jsonBody, route } from "@/lib/server/http/route";

export const POST = route<{ projectId: string; taskId: string }>("owner", async ({ user, params, request }) =>
  resolveTie(user, params.projectId, params.taskId, await jsonBody(request, resolveTieInput)),
);
