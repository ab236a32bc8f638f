import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { designsFor } from "@/lib/cereal/acquire";
import { ACQUISITIONS } from "@/lib/cereal/acquisition";
import { DESIGNS } from "@/lib/cereal/designs";
import { ESTIMATORS, estimatorByName } from "@/lib/cereal/estimators";
import type { TestClustering } from "@/lib/cereal/problem";
import { simulate, type RoundRecord } from "@/lib/cereal/simulate";
import type { SurrogateFactory } from "@/lib/cereal/surrogate";
import { readNpy } from "@/lib/data/npy";
import { db } from "./db";
import { badRequest, notFound } from "./errors";
import { enqueueJob } from "./jobs";
import { requireProjectRole } from "./project-access";
import { projectDir, projectFile } from "./project-files";
import type { SessionUser } from "./session";
import type { JobHandler } from "./worker";

/**
 * Oracle simulations on a project whose bundle has reference labels: lib/cereal's simulate runs
 * Algorithm 1 with labels.npy answering every query, as a worker job (it trains a surrogate per
 * round, far too slow for a request). The whole result goes to simulations/<job id>.json in the
 * project folder; the job keeps only its summary. Owner-only, like the labels it reads.
 */
export const SIMULATE_JOB = "simulate";

export const simulationInput = z
  .strictObject({
    acquisition: z.enum(ACQUISITIONS, `acquisition is one of ${ACQUISITIONS.join(", ")}`).default("hardnmi"),
    /** absent: the acquisition's design in the paper (DEFAULT_DESIGN) */
    design: z.enum(DESIGNS).optional(),
    estimator: z
      .string()
      .refine((name) => Object.hasOwn(ESTIMATORS, name), `estimator is one of ${Object.keys(ESTIMATORS).join(", ")}`)
      .default("argmax"),
    fixmatch: z.boolean().default(false),
    /** FixMatch falls back to supervised training while the surrogate is weak (the recommended configuration) */
    trainerGuard: z.boolean().default(false),
    seedSize: z.number().int().min(2).max(100_000).default(50),
    batch: z.number().int().min(1).max(100_000).default(50),
    budget: z.number().int().min(2).max(1_000_000).default(300),
    steps: z.number().int().min(1).max(100_000).default(256),
    seed: z.number().int().min(0).default(0),
  })
  .refine((input) => input.design === undefined || designsFor(input.acquisition).includes(input.design), {
    message: "The design does not fit the acquisition: Random draws uniform, the others proportional or top-score.",
    path: ["design"],
  });
export type SimulationInput = z.infer<typeof simulationInput>;

const payload = z.object({ projectId: z.string(), options: simulationInput });
const resultFile = (jobId: string) => `simulations/${jobId}.json`;

export async function startSimulation(user: SessionUser, projectId: string, input: SimulationInput) {
  await requireProjectRole(user, projectId, "OWNER");
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { hasReferenceLabels: true, mode: true, n: true } });
  if (!project.hasReferenceLabels) throw badRequest("This project's bundle has no reference labels (labels.npy); a simulation needs them as its oracle.");
  if (project.mode === "pairwise") throw badRequest("Simulations run clusterwise; this project labels pairs.");
  if (input.seedSize > input.budget) throw badRequest(`The seed batch (${input.seedSize}) cannot exceed the budget (${input.budget}).`);
  if (input.budget > project.n) throw badRequest(`The budget (${input.budget}) cannot exceed the ${project.n} items.`);
  const job = await enqueueJob(SIMULATE_JOB, { projectId, options: input }, { projectId, maxAttempts: 1 });
  return { id: job.id, status: job.status };
}

export async function listSimulations(user: SessionUser, projectId: string) {
  await requireProjectRole(user, projectId, "OWNER");
  const jobs = await db().job.findMany({ where: { projectId, kind: SIMULATE_JOB }, orderBy: { createdAt: "desc" } });
  return {
    simulations: jobs.map((j) => ({
      id: j.id,
      status: j.status,
      options: (j.payload as { options: SimulationInput }).options,
      progress: j.progress,
      summary: (j.result as { summary?: unknown } | null)?.summary ?? null,
      error: j.error,
      createdAt: j.createdAt,
      finishedAt: j.finishedAt,
    })),
  };
}

/** One finished run: per round, each clustering's estimate, interval and true value; and the AEC summary. */
export async function getSimulation(user: SessionUser, projectId: string, id: string) {
  await requireProjectRole(user, projectId, "OWNER");
  const job = await db().job.findFirst({ where: { id, projectId, kind: SIMULATE_JOB } });
  if (!job) throw notFound("No simulation with this id in this project.");
  if (job.status !== "done") return { id, status: job.status, error: job.error, result: null };
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { dataPath: true } });
  const result = JSON.parse(await readFile(projectFile(project, resultFile(id)), "utf8"));
  return { id, status: job.status, error: null, result };
}

export function simulationJobHandler(createSurrogate: SurrogateFactory): JobHandler {
  return async (ctx) => {
    const { projectId, options } = payload.parse(ctx.job.payload);
    const project = await db().project.findUniqueOrThrow({
      where: { id: projectId },
      include: { classes: true, clusterings: { orderBy: { name: "asc" } } },
    });
    const manifest = JSON.parse(await readFile(path.join(projectDir(project), "manifest.json"), "utf8")) as { embeddings?: string; labels?: string };
    const embeddings = await readNpy(projectFile(project, manifest.embeddings ?? "embeddings.npy"));
    const labels = (await readNpy(projectFile(project, manifest.labels ?? "labels.npy"))).data as Int32Array;
    const clusterings: TestClustering[] = [];
    for (const c of project.clusterings) {
      const soft = c.softFile ? ((await readNpy(projectFile(project, c.softFile))).data as Float32Array) : undefined;
      clusterings.push({ name: c.name, k: c.k, assignments: (await readNpy(projectFile(project, c.file))).data as Int32Array, soft });
    }
    const problem = { embeddings: { data: embeddings.data as Float32Array, n: project.n, d: project.d }, numClasses: Math.max(2, project.classes.length), clusterings };
    const result = await simulate(problem, labels, createSurrogate, {
      acquisition: options.acquisition,
      design: options.design,
      estimator: estimatorByName(options.estimator),
      fixmatch: options.fixmatch,
      trainerGuard: options.trainerGuard,
      seed: options.seed,
      seedSize: options.seedSize,
      batch: options.batch,
      budget: options.budget,
      steps: options.steps,
      onRound: (r: RoundRecord) => void ctx.progress({ round: r.round, nLabels: r.nLabels, budget: options.budget }),
    });
    if (ctx.signal.aborted) throw new Error("The simulation was cancelled.");
    const file = projectFile(project, resultFile(ctx.job.id));
    await mkdir(path.dirname(file), { recursive: true });
    // the draws list is per-label bookkeeping the page does not show; rounds and summary are the result
    const stored = { config: { ...result.config, options }, rounds: result.rounds, summary: result.summary };
    await writeFile(`${file}.tmp`, JSON.stringify(stored));
    await rename(`${file}.tmp`, file);
    return { file: resultFile(ctx.job.id), summary: JSON.parse(JSON.stringify(result.summary)) };
  };
}
