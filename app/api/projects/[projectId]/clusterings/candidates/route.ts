import { candidateClusteringInput, requestCandidateClustering } from "@/lib/server/projects/candidate-clusterings";
import { candidateClusteringJobs } from "@/lib/server/projects/candidate-jobs";
import { jsonBody, route } from "@/lib/server/http/route";

/** The project's embedding spaces and its latest candidate jobs with progress and outcome (owner only). */
export const GET = route<{ projectId: string }>("user", async ({ user, params }) => candidateClusteringJobs(user, params.projectId));

/** JSON {space?, method: kmeans|spectral, k, seed?}: queues a candidate clustering (owner only). */
export const POST = route<{ projectId: string }>("owner", async ({ user, params, request }) => ({
  job: await requestCandidateClustering(user, params.projectId, await jsonBody(request, candidateClusteringInput)),
}));
