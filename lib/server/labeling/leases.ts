import { z } from "zod";
import { db } from "../db";
import { requireProjectRole } from "../auth/project-access";
import type { SessionUser } from "../auth/session";

/**
 * Giving leases back. The workspace prefetches a few tasks (each leased for 10 minutes); when an
 * annotator leaves, it returns the ones they did not answer, so the end of a batch (and the
 * round after it) does not wait for leases held by a closed tab.
 */
export const releaseLeasesInput = z.object({ taskIds: z.array(z.string().min(1)).max(50, "Release at most 50 tasks at once.") });

export async function releaseLeases(user: SessionUser, projectId: string, input: z.infer<typeof releaseLeasesInput>) {
  await requireProjectRole(user, projectId);
  const { count } = await db().lease.deleteMany({ where: { userId: user.id, taskId: { in: input.taskIds }, task: { projectId } } });
  return { released: count };
}
