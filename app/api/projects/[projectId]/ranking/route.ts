import { clusteringRanking } from "@/lib/server/evaluation/ranking";
import { route } from "@/lib/server/http/route";

/**
 * GET /api/projects/:id/ranking?metric=nmi&measure=silhouette (owner): the clusterings ranked by
 * their latest estimate (interval, P(best), change since the round before), then by ACE; rho
 * between the two rankings. Reads the label-free scores, never queues them.
 */
export const GET = route<{ projectId: string }>("owner", async ({ user, params, request }) => {
  const query = new URL(request.url).searchParams;
  return clusteringRanking(user, params.projectId, { metric: query.get("metric"), measure: query.get("measure") });
});
