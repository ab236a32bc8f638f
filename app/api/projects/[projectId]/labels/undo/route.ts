import { undoLabelInput, undoLastLabel } from "@/lib/server/labels";
import { jsonBody, route } from "@/lib/server/route";

export const POST = route<{ projectId: string }>("user", async ({ user, params, request }) =>
  undoLastLabel(user, params.projectId, await jsonBody(request, undoLabelInput)),
);
