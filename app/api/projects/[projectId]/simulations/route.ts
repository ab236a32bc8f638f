import { jsonBody, route } from "@/lib/server/http/route";
import { listSimulations, simulationInput, startSimulation } from "@/lib/server/evaluation/simulations";

type Params = { projectId: string };

/** GET: the project's simulation runs; POST: queue one (owner, bundle with reference labels) */
export const GET = route<Params>("user", async ({ user, params }) => listSimulations(user, params.projectId));
export const POST = route<Params>("owner", async ({ user, params, request }) => startSimulation(user, params.projectId, await jsonBody(request, simulationInput)));
