import type { Job } from "@/lib/generated/prisma/client";
import { logger } from "./logger";

/** One JSON line per finished job attempt: kind, project, round, attempt, seconds, outcome. */
export type JobOutcome = "done" | "failed" | "retrying" | "handed back";

export function logJob(job: Job, payload: unknown, outcome: JobOutcome, startedMs: number, error?: string) {
  // rounds carry their index in the payload; other kinds have none
  const round = typeof payload === "object" && payload !== null && "round" in payload && typeof payload.round === "number" ? payload.round : undefined;
  const seconds = Math.round(performance.now() - startedMs) / 1000;
  const line = { jobId: job.id, kind: job.kind, projectId: job.projectId ?? undefined, round, attempt: job.attempts, seconds, outcome, error };
  if (outcome === "done") logger().info(line, "job");
  else logger().warn(line, "job");
}
