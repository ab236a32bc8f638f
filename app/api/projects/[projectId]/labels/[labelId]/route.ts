import { correctLabel, correctLabelInput } from "@/lib/server/labeling/labels";
import { jsonBody, route } from "@/lib/server/http/route";

export const PATCH = route<{ projectId: string; labelId: string }>("owner", async ({ user, params, request }) =>
  correctLabel(user, params.projectId, params.labelId, await jsonBody(request, correctLabelInput)),
);
