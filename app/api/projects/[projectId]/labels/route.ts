import { submitLabel, submitLabelInput } from "@/lib/server/labeling/labels";
import { jsonBody, route } from "@/lib/server/http/route";

export const POST = route<{ projectId: string }>(
  "user",
  async ({ user, params, request }) => submitLabel(user, params.projectId, await jsonBody(request, submitLabelInput)),
  { tokens: "label" },
);
