import { db, notifyProjectChanged } from "../db";
import { conflict, notFound } from "../errors";
import { cancelJob, jobPayload, retryJob } from "../jobs/queue";
import { requireProjectRole } from "../auth/project-access";
import { estimateHistory } from "../project-data/estimate-history";
import type { SessionUser } from "../auth/session";
import { roundJob, roundJobKey } from "./round-job";
import { roundProgress } from "./round-progress";

/**
 * The rounds of a project as the dashboard shows them: timings, backend, mask rate, status and
 * error, and each clustering's estimates, a running round's interim ones marked so (members see
 * estimates only where the owner allows it, interim ones alike);
 * the owner retries a failed round or cancels a running one.
 */
export async function listRounds(user: SessionUser, projectId: string) {
  const role = await requireProjectRole(user, projectId);
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { annotatorsSeeEstimates: true } });
  const showEstimates = role === "OWNER" || project.annotatorsSeeEstimates;
  const rounds = await db().round.findMany({ where: { projectId }, orderBy: { index: "asc" } });
  const history = showEstimates ? new Map((await estimateHistory(projectId, { withInterim: true })).map((r) => [r.index, r])) : null;
  const jobs = (await db().job.findMany({ where: { projectId, kind: roundJob.kind }, select: { id: true, kind: true, status: true, progress: true, error: true, attempts: true, payload: true } })).map(
    (j) => ({ ...j, round: jobPayload(roundJob, j).round }),
  );
  const jobOf = new Map(jobs.map((j) => [j.round, j]));
  const queued = jobs.filter((j) => j.status === "queued" && !rounds.some((r) => r.index === j.round));
  return {
    rounds: rounds.map((r) => {
      const job = jobOf.get(r.index);
      return {
        index: r.index,
        status: r.status,
        nLabels: r.nLabels,
        backend: r.backend,
        maskRate: r.maskRate,
        // the estimator behind the numbers, and the surrogate measured out of sample (lib/cereal/method/surrogate-health.ts)
        estimator: (r.config as { estimator?: string } | null)?.estimator ?? null,
        surrogateAccuracy: r.surrogateAccuracy,
        surrogateWeak: r.surrogateWeak,
        surrogateEce: r.surrogateEce,
        acquisition: r.acquisition,
        trainSeconds: r.trainSeconds,
        roundSeconds: r.roundSeconds,
        writeSeconds: r.writeSeconds,
        error: r.error,
        createdAt: r.createdAt,
        finishedAt: r.finishedAt,
        job: job ? { status: job.status, progress: roundProgress.safeParse(job.progress).data ?? null, attempts: job.attempts } : null,
        // a round that is not done has none, or (running) its interim estimates from the previous round's model
        interim: history?.get(r.index)?.interim ?? false,
        estimates: history ? [...(history.get(r.index)?.estimates ?? [])] : null,
      };
    }),
    queued: queued.map((j) => ({ index: j.round, status: j.status })),
  };
}

async function findRoundJob(projectId: string, index: number) {
  const job = await db().job.findUnique({ where: { dedupeKey: roundJobKey(projectId, index) } });
  if (!job) throw notFound(`Round ${index} has no job.`);
  return job;
}

/** Queues a failed or cancelled round again, with a fresh attempt budget. */
export async function retryRound(user: SessionUser, projectId: string, index: number) {
  await requireProjectRole(user, projectId, "OWNER");
  const job = await findRoundJob(projectId, index);
  if (job.status !== "failed" && job.status !== "cancelled") throw conflict(`Round ${index} is ${job.status}; only a failed or cancelled round can be retried.`);
  await db().round.updateMany({ where: { projectId, index, status: { in: ["failed", "cancelled"] } }, data: { status: "queued", error: null } });
  await retryJob(job.id);
  await notifyProjectChanged(db(), projectId);
  return { index, status: "queued" };
}

/** Stops a queued or running round; its labels stay, and it runs again only when the owner retries it. */
export async function cancelRound(user: SessionUser, projectId: string, index: number) {
  await requireProjectRole(user, projectId, "OWNER");
  const job = await findRoundJob(projectId, index);
  if (job.status !== "queued" && job.status !== "running") throw conflict(`Round ${index} is ${job.status}; only a queued or running round can be cancelled.`);
  await cancelJob(job.id);
  await db().round.updateMany({ where: { projectId, index, status: { not: "done" } }, data: { status: "cancelled", error: "Cancelled by the owner." } });
  await notifyProjectChanged(db(), projectId);
  return { index, status: "cancelled" };
}
