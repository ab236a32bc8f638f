import { route } from "@/lib/server/http/route";
import { getSimulation } from "@/lib/server/evaluation/simulations";

/** GET /api/projects/:id/simulations/:simulationId — rounds and AEC summary once done (owner) */
export const GET = route<{ projectId: string; simulationId: string }>("user", async ({ user, params }) => getSimulation(user, params.projectId, params.simulationId));
