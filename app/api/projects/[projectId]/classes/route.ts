import { addClass, addClassInput } from "@/lib/server/labeling/classes";
import { jsonBody, route } from "@/lib/server/http/route";

export const POST = route<{ projectId: string }>("user", async ({ user, params, request }) =>
  addClass(user, params.projectId, await jsonBody(request, addClassInput)),
);
