import { contingencyQuery, contingencyView } from "@/lib/server/evaluation/contingency-view";
import { route } from "@/lib/server/http/route";

/** GET /api/projects/:id/contingency?clustering=NAME (owner) */
export const GET = route<{ projectId: string }>("user", async ({ user, params, request }) => {
  const { clustering } = contingencyQuery.parse(Object.fromEntries(new URL(request.url).searchParams));
  return contingencyView(user, params.projectId, clustering);
});
