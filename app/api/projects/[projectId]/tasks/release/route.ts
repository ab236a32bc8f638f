import { releaseLeases, releaseLeasesInput } from "@/lib/server/labeling/leases";
import { jsonBody, route } from "@/lib/server/http/route";

// The workspace calls this with navigator.sendBeacon when the annotator leaves the page.
export const POST = route<{ projectId: string }>(
  "user",
  async ({ user, params, request }) => releaseLeases(user, params.projectId, await jsonBody(request, releaseLeasesInput)),
  { tokens: "label" },
);
