import { labelFreeEvaluation } from "@/lib/server/evaluation/label-free";
import { route } from "@/lib/server/http/route";

/**
 * ?measure=silhouette|davies-bouldin|calinski-harabasz: paired, pooled and ACE scores (owner
 * only). A POST: when the scores are not computed yet it queues the worker job.
 */
export const POST = route<{ projectId: string }>("user", async ({ user, params, request }) =>
  labelFreeEvaluation(user, params.projectId, { measure: new URL(request.url).searchParams.get("measure") }),
);
