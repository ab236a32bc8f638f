import { z } from "zod";
import { designsFor } from "@/lib/cereal/method/acquire";
import { ACQUISITIONS } from "@/lib/cereal/method/acquisition";
import { DESIGNS } from "@/lib/cereal/method/designs";
import { ESTIMATORS, estimatorByName } from "@/lib/cereal/method/estimators";
import { simulate, type RoundRecord } from "@/lib/cereal/harness/simulate";
import { simulatePairwise } from "@/lib/cereal/harness/pairwise-simulate";
import { PAIR_DESIGNS, RECOMMENDED_PAIRS } from "@/lib/cereal/pairwise/pair-designs";
import { db } from "../db";
import { badRequest, notFound } from "../errors";
import { defineJob } from "../jobs/definition";
import { enqueueJob, jobPayload, jobResult } from "../jobs/queue";
import { requireProjectRole } from "../auth/project-access";
import { loadProblem, readReferenceLabels } from "../project-data/arrays";
import { residualWhenCalibratedSchema } from "../projects/project-settings";
import { readSimulationResult, writeSimulationResult } from "../project-data/job-files";
import type { SessionUser } from "../auth/session";

/**
 * Oracle simulations on a project whose bundle has reference labels: lib/cereal's simulate runs
 * Algorithm 1 with labels.npy answering every query, as a worker job (it trains a surrogate per
 * round, far too slow for a request). The whole result goes to simulations/<job id>.json in the
 * project folder; the job keeps only its summary. Owner-only, like the labels it reads. Either mode
 * runs on any project with reference labels (mode pairwise: the labels answer same/different for
 * the pairs the pair design draws; the acquisition, design, estimator and FixMatch fields are unused).
 */
export const simulationInput = z
  .strictObject({
    mode: z.enum(["clusterwise", "pairwise"], "mode is clusterwise or pairwise").default("clusterwise"),
    pairDesign: z.enum(PAIR_DESIGNS, `pairDesign is one of ${PAIR_DESIGNS.join(", ")}`).default(RECOMMENDED_PAIRS.pairDesign),
    pairUniformShare: z.number().min(0, "pairUniformShare is a share from 0 to 1").max(1, "pairUniformShare is a share from 0 to 1").default(RECOMMENDED_PAIRS.pairUniformShare),
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
    /** warm start: rounds after the first train this many steps on from the previous round's weights; null: from scratch */
    warmSteps: z.number().int().min(1, "warmSteps is at least 1; null trains every round from scratch").max(100_000).nullable().default(null),
    /** the residual score in place of the acquisition in a round whose earlier models read at least RESIDUAL_MIN_ACCURACY right and calibrated within this gap (round.ts roundAcquisition); null: never */
    residualWhenCalibrated: residualWhenCalibratedSchema.default(null),
    seed: z.number().int().min(0).default(0),
  })
  .refine((input) => input.design === undefined || designsFor(input.acquisition).includes(input.design), {
    message: "The design does not fit the acquisition: Random draws uniform, the others proportional or top-score.",
    path: ["design"],
  });
export type SimulationInput = z.infer<typeof simulationInput>;

export const simulationJob = defineJob({
  kind: "simulate",
  payload: z.object({ projectId: z.string().min(1), options: simulationInput }),
  result: z.object({ file: z.string(), summary: z.json() }),
  lane: "heavy",
  onePerProject: false,
  projectOf: (p) => p.projectId,
  // a simulation trains a surrogate per round: budgets of thousands take hours on 2 cores
  longestRunMs: 12 * 60 * 60_000,
  // a failed run is the owner's to start again (with other options, most likely)
  retry: { maxAttempts: 1, backoffMs: 0 },
  async run({ job, payload: { projectId, options }, deps, signal, progress }) {
    const project = await db().project.findUniqueOrThrow({
      where: { id: projectId },
      include: { classes: true, clusterings: { orderBy: { name: "asc" } } },
    });
    const problem = await loadProblem(project);
    const labels = await readReferenceLabels(project);
    const onRound = (r: RoundRecord) => void progress({ round: r.round, nLabels: r.nLabels, budget: options.budget });
    // a cancelled job, or a draining worker's, stops at the next training step instead of after the whole run (hours)
    const onProgress = () => {
      if (signal.aborted) throw new Error("The simulation was cancelled.");
    };
    const { seed, seedSize, batch, budget } = options;
    let result;
    if (options.mode === "pairwise") {
      if (!deps.createPairwiseSurrogate) throw new Error("This worker has no pairwise surrogate (WorkerDeps.createPairwiseSurrogate); pairwise simulations need one.");
      const designOptions = { uniformShare: options.pairUniformShare };
      result = await simulatePairwise(problem, labels, deps.createPairwiseSurrogate, { design: options.pairDesign, strategy: "all", designOptions, seed, seedSize, batch, budget, onRound, onProgress });
    } else {
      result = await simulate(problem, labels, deps.createSurrogate, {
        acquisition: options.acquisition,
        design: options.design,
        estimator: estimatorByName(options.estimator),
        fixmatch: options.fixmatch,
        trainerGuard: options.trainerGuard,
        seed,
        seedSize,
        batch,
        budget,
        steps: options.steps,
        warmSteps: options.warmSteps ?? undefined,
        residualWhenCalibrated: options.residualWhenCalibrated ?? undefined,
        onRound,
        onProgress,
      });
    }
    if (signal.aborted) throw new Error("The simulation was cancelled.");
    // the draws list is per-label bookkeeping the page does not show; rounds and summary are the result
    const file = await writeSimulationResult(project, job.id, { config: { ...result.config, options }, rounds: result.rounds, summary: result.summary });
    return { file, summary: JSON.parse(JSON.stringify(result.summary)) };
  },
});

export async function startSimulation(user: SessionUser, projectId: string, input: SimulationInput) {
  await requireProjectRole(user, projectId, "OWNER");
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { hasReferenceLabels: true, mode: true, n: true } });
  if (!project.hasReferenceLabels) throw badRequest("This project's bundle has no reference labels (labels.npy); a simulation needs them as its oracle.");
  if (input.seedSize > input.budget) throw badRequest(`The seed batch (${input.seedSize}) cannot exceed the budget (${input.budget}).`);
  const pairs = (project.n * (project.n - 1)) / 2;
  if (input.mode === "pairwise" ? input.budget > pairs : input.budget > project.n)
    throw badRequest(input.mode === "pairwise" ? `The budget (${input.budget}) cannot exceed the ${pairs} pairs of ${project.n} items.` : `The budget (${input.budget}) cannot exceed the ${project.n} items.`);
  const job = await enqueueJob(simulationJob, { projectId, options: input });
  return { id: job.id, status: job.status };
}

export async function listSimulations(user: SessionUser, projectId: string) {
  await requireProjectRole(user, projectId, "OWNER");
  const jobs = await db().job.findMany({ where: { projectId, kind: simulationJob.kind }, orderBy: { createdAt: "desc" } });
  return {
    simulations: jobs.map((j) => ({
      id: j.id,
      status: j.status,
      options: jobPayload(simulationJob, j).options,
      progress: j.progress,
      summary: jobResult(simulationJob, j)?.summary ?? null,
      error: j.error,
      createdAt: j.createdAt,
      finishedAt: j.finishedAt,
    })),
  };
}

/** One finished run: per round, each clustering's estimate, interval and true value; and the AEC summary. */
export async function getSimulation(user: SessionUser, projectId: string, id: string) {
  await requireProjectRole(user, projectId, "OWNER");
  const job = await db().job.findFirst({ where: { id, projectId, kind: simulationJob.kind } });
  if (!job) throw notFound("No simulation with this id in this project.");
  if (job.status !== "done") return { id, status: job.status, error: job.error, result: null };
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { dataPath: true } });
  return { id, status: job.status, error: null, result: await readSimulationResult(project, id) };
}
