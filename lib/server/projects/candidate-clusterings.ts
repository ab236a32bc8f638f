/**
 * Candidate clusterings made in the app: the owner asks for k-means or spectral clustering of one
 * of the project's embedding spaces; a worker job runs lib/clustering, writes
 * clusterings/NAME.npy into the project folder and records a Clustering whose origin holds the
 * algorithm, its parameters and the running time. Estimates cover it from the next round.
 */
import { z } from "zod";
import { CLUSTERING_METHODS, makeCandidateClustering, SPECTRAL_MAX_ITEMS } from "@/lib/clustering";
import { db } from "../db";
import { badRequest, conflict } from "../errors";
import { defineJob } from "../jobs/definition";
import { enqueueJob, jobPayload } from "../jobs/queue";
import { requireProjectRole } from "../auth/project-access";
import { readArray, writeAssignments } from "../project-data/arrays";
import { embeddingsFile } from "../project-data/manifest";
import type { SessionUser } from "../auth/session";

export const candidateClusteringInput = z.object({
  /** an EmbeddingSpace of the project; the main embeddings when left out */
  space: z.string().trim().min(1).max(100).optional(),
  method: z.enum(CLUSTERING_METHODS as [string, ...string[]], { message: `method must be one of ${CLUSTERING_METHODS.join(", ")}.` }),
  k: z.coerce.number().int("k must be an integer.").min(2, "k must be at least 2.").max(10_000),
  seed: z.coerce.number().int().min(0).max(2 ** 31 - 1).default(0),
});
export type CandidateClusteringInput = z.input<typeof candidateClusteringInput>;

const candidatePayload = candidateClusteringInput.extend({ projectId: z.string(), name: z.string() });
type CandidatePayload = z.infer<typeof candidatePayload>;

/** Queues a candidate clustering (owner only); the name says what it is, e.g. pca8_kmeans_k10_s0. */
export async function requestCandidateClustering(user: SessionUser, projectId: string, rawInput: CandidateClusteringInput) {
  await requireProjectRole(user, projectId, "OWNER");
  const input = candidateClusteringInput.parse(rawInput);
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { n: true, spaces: { select: { name: true } } } });
  if (input.k >= project.n) throw badRequest(`k must be below the number of items (${project.n}).`);
  if (input.method === "spectral" && project.n > SPECTRAL_MAX_ITEMS)
    throw badRequest(
      `Spectral clustering is limited to ${SPECTRAL_MAX_ITEMS.toLocaleString("en")} items (its nearest-neighbour search grows with the square of N); this project has ${project.n.toLocaleString("en")}. Use k-means, or cluster offline and add the result with \`cereal add-clustering\`.`,
    );
  if (input.space !== undefined && !project.spaces.some((s) => s.name === input.space)) {
    const names = project.spaces.map((s) => s.name);
    throw badRequest(`This project has no embedding space '${input.space}'${names.length ? ` (it has ${names.join(", ")})` : "; leave space out to use its embeddings"}.`);
  }
  const name = `${input.space ?? "embeddings"}_${input.method}_k${input.k}_s${input.seed}`;
  if (await db().clustering.findUnique({ where: { projectId_name: { projectId, name } } }))
    throw conflict(`This project already has the clustering '${name}'.`);
  const pending = await db().job.findMany({ where: { projectId, kind: candidateClusteringJob.kind, status: { in: ["queued", "running"] } }, select: { kind: true, payload: true } });
  if (pending.some((j) => jobPayload(candidateClusteringJob, j).name === name)) throw conflict(`'${name}' is already being made.`);
  const payload: CandidatePayload = { ...input, projectId, name };
  const job = await enqueueJob(candidateClusteringJob, payload);
  return { jobId: job.id, name };
}

/** The points of a space (or of the main embeddings) from the project folder. */
async function spacePoints(project: { id: string; n: number; dataPath: string }, space: string | undefined): Promise<{ x: Float32Array; d: number }> {
  const file =
    space === undefined ? await embeddingsFile(project) : (await db().embeddingSpace.findUniqueOrThrow({ where: { projectId_name: { projectId: project.id, name: space } } })).file;
  const array = await readArray(project, file);
  if (array.dtype !== "float32" || array.shape.length !== 2 || array.shape[0] !== project.n)
    throw new Error(`${file}: expected float32 of shape (${project.n}, D), found ${array.dtype} (${array.shape.join(", ")})`);
  return { x: array.data as Float32Array, d: array.shape[1] };
}

export const candidateClusteringJob = defineJob({
  kind: "cluster",
  payload: candidatePayload,
  result: z.object({ clusteringId: z.string(), name: z.string(), k: z.number().optional(), seconds: z.number().optional() }),
  lane: "heavy",
  onePerProject: false,
  projectOf: (p) => p.projectId,
  // spectral clustering of 10^5 items: minutes; two hours means the worker is stuck
  longestRunMs: 2 * 60 * 60_000,
  retry: { maxAttempts: 3, backoffMs: 5_000 },
  run: ({ payload, progress }) => makeClustering(payload, progress),
});

async function makeClustering(payload: CandidatePayload, progress: (value: Record<string, string | number>) => Promise<boolean>) {
  const project = await db().project.findUniqueOrThrow({ where: { id: payload.projectId }, select: { id: true, n: true, dataPath: true, embeddingSpace: true } });
  const file = `clusterings/${payload.name}.npy`;
  // a retried job whose earlier attempt got as far as the row is done
  const existing = await db().clustering.findUnique({ where: { projectId_name: { projectId: project.id, name: payload.name } } });
  if (existing) return { clusteringId: existing.id, name: existing.name };
  if (await db().clustering.findFirst({ where: { projectId: project.id, file } }))
    throw new Error(`${file} belongs to another clustering of this project.`);

  const { x, d } = await spacePoints(project, payload.space);
  await progress({ stage: "clustering", method: payload.method, n: project.n, d });
  const result = await makeCandidateClustering(x, project.n, d, { method: payload.method as "kmeans" | "spectral", k: payload.k, seed: payload.seed }, async (stage) => {
    await progress({ stage, method: payload.method, n: project.n, d });
  });
  const k = new Set(result.labels).size;
  await writeAssignments(project, file, result.labels);
  const clustering = await db().clustering.create({
    data: {
      projectId: project.id,
      name: payload.name,
      k,
      file,
      space: payload.space ?? project.embeddingSpace,
      origin: { algorithm: result.algorithm, params: result.params, seconds: result.seconds, madeBy: "app" },
    },
  });
  return { clusteringId: clustering.id, name: clustering.name, k, seconds: result.seconds };
}
