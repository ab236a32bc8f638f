import { labelOverview, labelOverviewQuery } from "@/lib/server/labeling/label-overview";
import { route } from "@/lib/server/http/route";

/** GET /api/projects/:id/label-overview?page=0&pageSize=12 (owner) */
export const GET = route<{ projectId: string }>("user", async ({ user, params, request }) =>
  labelOverview(user, params.projectId, labelOverviewQuery.parse(Object.fromEntries(new URL(request.url).searchParams))),
);
