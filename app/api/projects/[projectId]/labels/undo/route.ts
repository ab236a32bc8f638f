import { undoLabelInput, undoLastLabel } from "@/lib/server/labeling/labels";
import { jsonBody, route } from "@/lib/server/http/route";

export const POST = route<{ projectId: string }>(
  "user",
  async ({ user, params, request }) => undoLastLabel(user, params.projectId, await jsonBody(request, undoLabelInput)),
  { tokens: "label" },
);
