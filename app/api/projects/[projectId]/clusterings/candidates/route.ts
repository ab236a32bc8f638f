import { candidateClusteringInput, requestCandidateClustering } from "@/lib/server/candidate-clusterings";
import { jsonBody, route } from "@/lib/server/route";

/** JSON {space?, method: kmeans|spectral, k, seed?}: queues a candidate clustering (owner only). */
export const POST = route<{ projectId: string }>("user", async ({ user, params, request }) => ({
  job: await requestCandidateClustering(user, params.projectId, await jsonBody(request, candidateClusteringInput)),
}));
