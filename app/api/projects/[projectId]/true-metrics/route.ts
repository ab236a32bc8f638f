import { route } from "@/lib/server/http/route";
import { projectTrueMetrics } from "@/lib/server/evaluation/true-metrics";

/** GET /api/projects/:id/true-metrics (owner; reference labels required for values) */
export const GET = route<{ projectId: string }>("user", async ({ user, params }) => projectTrueMetrics(user, params.projectId));
