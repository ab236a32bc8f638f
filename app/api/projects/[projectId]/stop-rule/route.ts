import { route } from "@/lib/server/http/route";
import { stopRuleStatus } from "@/lib/server/evaluation/stop-rule-status";

/** GET /api/projects/:id/stop-rule (owner): per clustering and metric, converged and labels still needed */
export const GET = route<{ projectId: string }>("user", async ({ user, params }) => stopRuleStatus(user, params.projectId));
