import { z } from "zod";
import { cancelRound, retryRound } from "@/lib/server/rounds/round-history";
import { route } from "@/lib/server/http/route";

const params = z.object({ index: z.coerce.number().int().min(0, "round index is 0 or more"), action: z.enum(["retry", "cancel"], "action is retry or cancel") });

/** POST /api/projects/:id/rounds/:index/retry | cancel (owner) */
export const POST = route<{ projectId: string; index: string; action: string }>("user", async ({ user, params: raw }) => {
  const { index, action } = params.parse(raw);
  return action === "retry" ? retryRound(user, raw.projectId, index) : cancelRound(user, raw.projectId, index);
});
