import { z } from "zod";
import type { Draw } from "@/lib/cereal/method/designs";
import type { PairDrawRecord } from "@/lib/cereal/pairwise/pair-designs";
import type { Prisma } from "@/lib/generated/prisma/client";
import { drawnKeys } from "../labeling/batches";
import { codeVersion } from "../code-version";
import { db, lockProject, transaction } from "../db";
import type { WorkerDeps } from "../jobs/definition";
import { majority } from "../labeling/labels";
import { settledThrough, stageDemand } from "../labeling/stages";
import { clusterwiseRound } from "./clusterwise-steps";
import { pairwiseRound } from "./pairwise-steps";
import { roundConfig } from "./round-config";
import { assertProjectExists } from "./round-store";

/**
 * A round in the worker (paper Algorithm 1 on the project's labels), as named steps: freeze the
 * labels of the settled stages (one Round row per index; the labels it uses can no longer be
 * withdrawn), load the problem, the interim estimate (clusterwise: the previous round's model's
 * estimate, shown until this round's replaces it), fit the surrogate, estimate, acquire (clusterwise: rank the rows
 * later stages draw from; pairwise: draw the next stage), store. Clusterwise and
 * pairwise rounds differ only inside the steps (clusterwise-steps.ts, pairwise-steps.ts). A
 * worker killed at any point leaves either no finished round (the job is claimed again and
 * resumes on the same Round row) or exactly one finished round and one next batch.
 */
export interface RoundInput {
  readonly projectId: string;
  readonly round: number;
  readonly jobId: string;
  readonly deps: WorkerDeps;
  /** aborted when the round is cancelled: the fit stops at its next step */
  readonly signal: AbortSignal;
  /** stores progress on the job (and notices a cancelled one) */
  readonly progress: (value: Prisma.InputJsonValue) => Promise<boolean>;
}

export const ROUND_STEPS = ["freeze", "load", "interim", "fit", "estimate", "acquire", "store"] as const;
export type RoundStep = (typeof ROUND_STEPS)[number];

/** What the job stores as its result: the round's size, its next batch and each step's seconds, wall and CPU (this process's user + system time: on shared cores the closer figure of the work). */
export const roundOutcome = z.object({
  round: z.number(),
  skipped: z.string().optional(),
  pairwise: z.boolean().optional(),
  nLabels: z.number().optional(),
  next: z.number().optional(),
  pairAccuracy: z.number().nullable().optional(),
  // partial: round 0, pairwise rounds and rounds without a surrogate have no interim step
  steps: z.partialRecord(z.enum(ROUND_STEPS), z.number()).optional(),
  cpu: z.partialRecord(z.enum(ROUND_STEPS), z.number()).optional(),
});
export type RoundOutcome = z.infer<typeof roundOutcome>;

/** The steps after loading, as each mode implements them. */
export interface RoundSteps {
  /** stores interim estimates from the previous round's model before the fit (clusterwise rounds after the first); false when there are none */
  interim?(): Promise<boolean>;
  fit(): Promise<void>;
  estimate(): void;
  acquire(): void;
  /** writes the round's files and completes it (estimates, next batch, done) in one transaction */
  store(timing: { started: number; writeStarted: number }): Promise<Omit<RoundOutcome, "round" | "steps">>;
}

/** What a mode's load step starts from. */
export interface RoundLoad {
  readonly project: RoundProject;
  readonly round: number;
  readonly frozen: FrozenLabels;
  readonly plan: BatchPlan;
  readonly input: RoundInput;
}

/** A round mode (clusterwise, pairwise): loads lib/cereal's state and returns its steps. */
export interface RoundMode {
  load(from: RoundLoad): Promise<RoundSteps>;
}

export type RoundProject = Awaited<ReturnType<typeof loadRoundProject>>;

const loadRoundProject = (id: string) => db().project.findUniqueOrThrow({ where: { id }, include: { classes: true, clusterings: { orderBy: { name: "asc" } } } });

export async function runRound(input: RoundInput): Promise<RoundOutcome> {
  const started = performance.now();
  const { projectId, round } = input;
  const project = await loadRoundProject(projectId);
  const existing = await db().round.findUnique({ where: { projectId_index: { projectId, index: round } } });
  if (existing?.status === "done") return { round, skipped: "already done" };

  const seconds: Partial<Record<RoundStep, number>> = {};
  const cpu: Partial<Record<RoundStep, number>> = {};
  const timed = async <T>(step: RoundStep, work: () => T | Promise<T>): Promise<T> => {
    const t = performance.now();
    const c = process.cpuUsage();
    const value = await work();
    seconds[step] = (performance.now() - t) / 1000;
    const used = process.cpuUsage(c);
    cpu[step] = (used.user + used.system) / 1e6;
    return value;
  };
  const frozen = await timed("freeze", () => freezeLabels(project, round, input.jobId, existing?.id ?? null));
  const plan = await planNextBatch(project);
  const mode = project.mode === "pairwise" ? pairwiseRound : clusterwiseRound;
  const steps = await timed("load", () => mode.load({ project, round, frozen, plan, input }));
  if (steps.interim) await timed("interim", () => steps.interim!());
  await timed("fit", () => steps.fit());
  await timed("estimate", () => steps.estimate());
  await timed("acquire", () => steps.acquire());
  if (input.signal.aborted) throw new Error("The round was cancelled.");
  const outcome = await timed("store", async () => {
    await assertProjectExists(projectId);
    await input.progress({ phase: "writing" });
    return steps.store({ started, writeStarted: performance.now() });
  });
  return { round, ...outcome, steps: seconds, cpu };
}

/** A settled item label, or a settled pair answer, with how its task was drawn. */
export interface LabelRow {
  readonly itemIndex: number;
  readonly classIndex: number;
  readonly draw: Draw;
}
export interface PairRow {
  readonly a: number;
  readonly b: number;
  readonly same: boolean;
  readonly draw: PairDrawRecord;
}
export interface FrozenLabels {
  readonly items: LabelRow[];
  readonly pairs: PairRow[];
  /** the last stage of the settled prefix the labels come from */
  readonly settled: number;
}

/** Step "freeze": creates (or takes over) the Round row and marks the labels it uses: item labels, or answered pairs, of the settled stages. */
async function freezeLabels(project: RoundProject, round: number, jobId: string, roundId: string | null): Promise<FrozenLabels> {
  const projectId = project.id;
  return transaction(async (tx) => {
    await lockProject(tx, projectId);
    const settled = await settledThrough(tx, projectId);
    const tasks = await tx.task.findMany({
      where: { projectId, done: true, batch: { index: { lte: settled } } },
      include: { labels: { where: { withdrawn: false } }, batch: { select: { index: true } } },
      orderBy: { drawOrder: "asc" },
    });
    const items: LabelRow[] = [];
    const pairs: PairRow[] = [];
    for (const task of tasks) {
      if (project.mode === "pairwise") {
        // "unsure" answers and skips never count (majority ignores them): such a pair is left out
        const answer = task.resolvedAnswer ?? majority(task.labels);
        if ((answer !== "same" && answer !== "different") || task.itemIndexB === null) continue;
        const draw = { row: task.itemIndex, rowB: task.itemIndexB, design: task.design as Draw["design"], score: task.score, q: task.q, order: task.drawOrder, round: task.batch.index };
        pairs.push({ a: task.itemIndex, b: task.itemIndexB, same: answer === "same", draw });
        continue;
      }
      const value = task.resolvedClassIndex !== null ? String(task.resolvedClassIndex) : majority(task.labels);
      if (value === null) continue;
      items.push({
        itemIndex: task.itemIndex,
        classIndex: Number(value),
        draw: { row: task.itemIndex, design: task.design as Draw["design"], score: task.score, q: task.q, order: task.drawOrder, round: task.batch.index },
      });
    }
    await tx.label.updateMany({ where: { projectId, withdrawn: false, usedByRound: null, task: { done: true, batch: { index: { lte: settled } } } }, data: { usedByRound: round } });
    const data = {
      nLabels: items.length + pairs.length,
      status: "running",
      jobId,
      config: roundConfig(project),
      seed: project.seed,
      codeVersion: codeVersion(),
    };
    if (roundId) await tx.round.update({ where: { id: roundId }, data });
    else await tx.round.create({ data: { projectId, index: round, ...data } });
    return { items, pairs, settled };
  });
}

/** What the round may draw or rank: pairwise rounds draw the next stage themselves (up to batchSize, never past the budget); nothing drawn is drawn again. */
export interface BatchPlan {
  /** pairs the round draws (clusterwise rounds rank rows instead; stages draw them) */
  readonly size: number;
  /** items and pairs that have a task already: never drawn again */
  readonly drawn: Awaited<ReturnType<typeof drawnKeys>>;
}

async function planNextBatch(project: RoundProject): Promise<BatchPlan> {
  const drawn = await drawnKeys(db(), project.id);
  const demand = await stageDemand(db(), project, new Date());
  return { size: Math.min(project.batchSize, demand.roomTasks), drawn };
}
