import { labelFreeEvaluation } from "@/lib/server/label-free";
import { route } from "@/lib/server/route";

/** ?measure=silhouette|davies-bouldin|calinski-harabasz: paired, pooled and ACE scores (owner only). */
export const GET = route<{ projectId: string }>("user", async ({ user, params, request }) =>
  labelFreeEvaluation(user, params.projectId, { measure: new URL(request.url).searchParams.get("measure") }),
);
