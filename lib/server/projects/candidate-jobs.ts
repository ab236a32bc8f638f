/**
 * What the candidate clustering form shows: the project's embedding spaces to choose from and its
 * latest candidate jobs (lib/server/projects/candidate-clusterings) with their progress and outcome, so the
 * owner sees a k-means or spectral run go from queued to a new test clustering, or why it failed.
 */
import { db } from "../db";
import { candidateClusteringJob } from "./candidate-clusterings";
import { jobPayload, jobResult } from "../jobs/queue";
import { requireProjectRole } from "../auth/project-access";
import type { SessionUser } from "../auth/session";

/** the form lists this many recent jobs; older outcomes are in the ranking (or were failures long fixed) */
const RECENT_JOBS = 8;

export interface CandidateJobView {
  id: string;
  name: string;
  method: string;
  k: number;
  space: string | null;
  seed: number;
  status: string;
  /** the running job's stage, e.g. { stage: "clustering" } or a spectral eigensolver step */
  progress: Record<string, unknown> | null;
  error: string | null;
  /** once done: the clustering's id, its number of clusters and the algorithm's running time */
  outcome: { clusteringId: string; k: number | null; seconds: number | null } | null;
  createdAt: string;
  finishedAt: string | null;
}

export async function candidateClusteringJobs(user: SessionUser, projectId: string): Promise<{ spaces: string[]; defaultSpace: string | null; jobs: CandidateJobView[] }> {
  await requireProjectRole(user, projectId, "OWNER");
  const project = await db().project.findUniqueOrThrow({
    where: { id: projectId },
    select: { embeddingSpace: true, spaces: { orderBy: { name: "asc" }, select: { name: true } } },
  });
  const jobs = await db().job.findMany({ where: { projectId, kind: candidateClusteringJob.kind }, orderBy: { createdAt: "desc" }, take: RECENT_JOBS });
  return {
    spaces: project.spaces.map((s) => s.name),
    defaultSpace: project.embeddingSpace,
    jobs: jobs.map((job) => {
      const payload = jobPayload(candidateClusteringJob, job);
      const result = jobResult(candidateClusteringJob, job);
      return {
        id: job.id,
        name: payload.name,
        method: payload.method,
        k: payload.k,
        space: payload.space ?? null,
        seed: payload.seed,
        status: job.status,
        progress: (job.progress as Record<string, unknown> | null) ?? null,
        error: job.error,
        outcome: job.status === "done" && result?.clusteringId ? { clusteringId: result.clusteringId, k: result.k ?? null, seconds: result.seconds ?? null } : null,
        createdAt: job.createdAt.toISOString(),
        finishedAt: job.finishedAt?.toISOString() ?? null,
      };
    }),
  };
}
