import { drawStage, type Stage } from "@/lib/cereal/method/stages";
import type { Design } from "@/lib/cereal/method/designs";
import type { OutOfSampleRecord, StageEvidence } from "@/lib/cereal/method/out-of-sample";
import { recordFromJson, recordToJson, withEvidence, type OutOfSampleJson } from "@/lib/cereal/method/out-of-sample";
import { drawUniformPairs } from "@/lib/cereal/pairwise/pair-designs";
import type { TestClustering } from "@/lib/cereal/method/problem";
import type { Prisma } from "@/lib/generated/prisma/client";
import { Random } from "@/lib/random/named-streams";
import { db, lockProject, transaction, type Tx } from "../db";
import { readTestClusterings } from "../project-data/arrays";
import { readRoundRanking } from "../project-data/round-files";
import { createBatch, drawnKeys } from "./batches";
import { logger } from "../ops/logger";

/**
 * Stages (issue #18): annotators never wait for a round. The server keeps enough drawn,
 * unanswered task slots for every active annotator by drawing the next stage ahead of need,
 * outside the request: a drawn stage waits in the database and the next-task request only leases
 * from it. A stage is one draw by the project's design from every row not drawn before it, with
 * the ranking of the latest finished round (lib/cereal/method/stages.ts); it records the round
 * that drew it, its design, uniform share, size, pool size and the ranking model's out-of-sample
 * evidence over that pool. Pairwise stages drawn here are uniform pairs (the uncertain and anchor
 * designs need the drawing model's p(.|x) of every pair; the round draws those stages itself,
 * rounds/pairwise-steps.ts). Stages never take the project past its budget.
 */

/** an annotator is active while holding a lease or having answered within this window */
export const ACTIVE_WINDOW_MS = 5 * 60_000;
/** free slots kept per active annotator: the label page holds 5 tasks and refills 2-5 at a time */
export const SLOTS_PER_ANNOTATOR = 5;

export interface StageProject {
  readonly id: string;
  readonly n: number;
  readonly seed: number;
  readonly mode: string;
  readonly batchSize: number;
  readonly budget: number;
  readonly overlap: number;
  readonly dataPath: string;
  readonly classes: readonly unknown[];
  readonly clusterings: readonly { name: string; file: string; softFile?: string | null; k: number }[];
}

/**
 * What the project needs drawn now: the free slots of its open tasks against the active team's
 * need, and the budget's room. Checked after most next-task calls, so it is two aggregate SQL
 * reads (plain SQL both databases run), not the open tasks with their labels and leases.
 */
export async function stageDemand(tx: Tx, project: Pick<StageProject, "id" | "budget" | "overlap" | "batchSize">, now: Date, requester?: string) {
  const [slots] = await tx.$queryRaw<{ free: unknown; pending: unknown; labels: unknown }[]>`
    SELECT COALESCE(SUM(CASE WHEN c."answers" + c."leases" < ${project.overlap} THEN ${project.overlap} - c."answers" - c."leases" ELSE 0 END), 0) AS "free",
      COALESCE(SUM(CASE WHEN c."answers" < ${project.overlap} THEN ${project.overlap} - c."answers" ELSE 0 END), 0) AS "pending",
      (SELECT COUNT(*) FROM "Label" l WHERE l."projectId" = ${project.id} AND l."kind" = 'label' AND l."withdrawn" = false) AS "labels"
    FROM (
      SELECT (SELECT COUNT(*) FROM "Label" l WHERE l."taskId" = t."id" AND l."withdrawn" = false) AS "answers",
        (SELECT COUNT(*) FROM "Lease" s WHERE s."taskId" = t."id" AND s."expiresAt" > ${now}) AS "leases"
      FROM "Task" t WHERE t."projectId" = ${project.id} AND t."done" = false
    ) c`;
  // active: holding a live lease on an open task, or answered within the window
  const users = await tx.$queryRaw<{ userId: string }[]>`
    SELECT s."userId" FROM "Lease" s JOIN "Task" t ON t."id" = s."taskId" WHERE t."projectId" = ${project.id} AND t."done" = false AND s."expiresAt" > ${now}
    UNION
    SELECT l."userId" FROM "Label" l WHERE l."projectId" = ${project.id} AND l."createdAt" > ${new Date(now.getTime() - ACTIVE_WINDOW_MS)}`;
  const active = new Set(users.map((u) => u.userId));
  if (requester) active.add(requester);
  const free = Number(slots.free);
  const pendingSlots = Number(slots.pending);
  const labels = Number(slots.labels);
  // every open slot may still become a label: draw only what the budget has room for after them
  const roomTasks = Math.max(0, Math.floor((project.budget - labels - pendingSlots) / project.overlap));
  const target = Math.max(1, active.size) * SLOTS_PER_ANNOTATOR;
  const wanted = free >= target ? 0 : Math.max(project.batchSize, Math.ceil((target - free) / project.overlap));
  return { free, active: active.size, target, roomTasks, size: Math.min(wanted, roomTasks) };
}

/** The latest finished round's ranking (null before any round finished, or when it ranked nothing). */
async function latestRanking(project: StageProject) {
  const round = await db().round.findFirst({
    where: { projectId: project.id, status: "done" },
    orderBy: { index: "desc" },
    select: { index: true, scoresFile: true, probaFile: true, temperature: true, config: true },
  });
  if (!round) return null;
  const config = round.config as { design?: Design; eps?: number };
  return readRoundRanking(project, { ...round, design: config.design ?? "uniform", eps: config.eps ?? 0.1 });
}

let cachedClusterings: { key: string; clusterings: TestClustering[] } | null = null;
async function testClusterings(project: StageProject): Promise<TestClustering[]> {
  const key = `${project.id}|${project.clusterings.map((c) => c.name).join(",")}`;
  if (cachedClusterings?.key !== key) cachedClusterings = { key, clusterings: await readTestClusterings(project, project.clusterings) };
  return cachedClusterings.clusterings;
}

const loadStageProject = (tx: Tx, id: string) =>
  tx.project.findUnique({ where: { id }, include: { classes: { select: { id: true } }, clusterings: { orderBy: { name: "asc" } } } });

/**
 * Draws the next stage when the project needs one (stageDemand), in one transaction that checks
 * the need again: concurrent callers never draw twice. Returns the number of tasks drawn.
 */
export async function drawStageIfNeeded(projectId: string, requester?: string): Promise<number> {
  // most checks find enough drawn: read the need first (the few columns it needs), without a write transaction or a ranking
  const check = await db().project.findUnique({ where: { id: projectId }, select: { id: true, budget: true, overlap: true, batchSize: true, paused: true, state: true } });
  if (!check || check.paused || check.state !== "ready") return 0;
  const need = await stageDemand(db(), check, new Date(), requester);
  lastNeed.set(projectId, { at: Date.now(), free: need.free, target: need.target });
  if (need.size <= 0) return 0;
  const before = await loadStageProject(db(), projectId);
  if (!before) return 0;
  // files are read before the write transaction, so the lock is held for the draw only
  const ranking = before.mode === "pairwise" ? null : await latestRanking(before);
  const clusterings = ranking?.rawProba ? await testClusterings(before) : [];
  return transaction(async (tx) => {
    await lockProject(tx, projectId);
    const project = await loadStageProject(tx, projectId);
    if (!project || project.paused) return 0;
    const demand = await stageDemand(tx, project, new Date(), requester);
    if (demand.size <= 0) return 0;
    const drawn = await drawnKeys(tx, project.id);
    const last = await tx.batch.findFirst({ where: { projectId }, orderBy: { index: "desc" }, select: { index: true } });
    const index = (last?.index ?? -1) + 1;
    const random = Random.from(project.seed, "stage", index);
    if (project.mode === "pairwise") {
      const pairs = drawUniformPairs(project.n, demand.size, random, drawn.pairs);
      if (!pairs.length) return 0;
      await createBatch(tx, projectId, { index, drawnByRoundIndex: null, design: "uniform", eps: 0, poolSize: null, evidence: null }, pairs.map((p) => ({ ...p, design: "uniform" as const })));
      return pairs.length;
    }
    const pool = undrawnRows(project.n, drawn.rows);
    if (!pool.length) return 0;
    const stage = drawStage({ stage: index, firstOrder: drawn.count, pool, size: demand.size, ranking, numClasses: Math.max(2, project.classes.length), clusterings, random });
    await createBatch(tx, projectId, stageRecord(stage, index, ranking?.round ?? null), stage.draws.map((d) => ({ ...d, rowB: null })));
    return stage.draws.length;
  });
}

/** Every row not drawn yet, increasing (a mask over N: no per-row callback or Set lookup). */
function undrawnRows(n: number, drawn: ReadonlySet<number>): Int32Array {
  const taken = new Uint8Array(n);
  for (const row of drawn) taken[row] = 1;
  const pool = new Int32Array(n - drawn.size);
  for (let row = 0, j = 0; row < n; row++) if (!taken[row]) pool[j++] = row;
  return pool;
}

/** The Batch row of a drawn stage. */
function stageRecord(stage: Stage, index: number, drawnByRoundIndex: number | null) {
  return {
    index,
    drawnByRoundIndex,
    design: stage.design,
    eps: stage.eps,
    poolSize: stage.poolSize,
    evidence: stage.evidence ? evidenceToJson(stage.evidence) : null,
  };
}

/** A stage's evidence as the JSON stored on its Batch row (the out-of-sample record's format, one batch). */
function evidenceToJson(evidence: StageEvidence): Prisma.InputJsonValue {
  return recordToJson({ batches: new Map([[evidence.batch.round, evidence.batch]]), predictions: evidence.predictions }) as unknown as Prisma.InputJsonValue;
}

/** The record the estimators read: a base (earlier rounds' files) with every given stage's stored evidence. */
export function recordWithStages(base: OutOfSampleRecord, stages: readonly { evidence: Prisma.JsonValue | null }[]): OutOfSampleRecord {
  let record = base;
  for (const s of stages) {
    if (!s.evidence) continue;
    const one = recordFromJson(s.evidence as unknown as OutOfSampleJson);
    for (const batch of one.batches.values()) record = withEvidence(record, { batch, predictions: one.predictions });
  }
  return record;
}

// One check (and draw) at a time per project in this process; a call while one runs asks for one more after it.
const inFlight = new Map<string, Promise<number>>();
const again = new Set<string>();
// the last need read per project: right after a check that found the free slots needed, requests skip theirs
const lastNeed = new Map<string, { at: number; free: number; target: number }>();
const HEADROOM_FOR_MS = 250;

/**
 * Keeps the project's stages ahead of need, outside the request that noticed it: returns the
 * check in flight (the next-task request awaits it only when it found no task at all). Calls
 * while a check runs are coalesced into one more check after it, so a burst of requests costs
 * two checks and the last request's need is always seen. For 250 ms after a check, requests skip
 * theirs while the free slots it saw, less those leased here since (`leased`), still cover the
 * need: they would draw nothing (`waiting`: a request that found no task never skips). Stages are
 * drawn a batch at a time, so the free slots mostly stay below twice the need: that margin
 * skipped almost no check, and each check costs three reads (issue #18).
 * Errors are logged, never thrown.
 */
export function keepStagesAhead(projectId: string, requester?: string, options: { waiting?: boolean; leased?: number } = {}): Promise<number> {
  const last = lastNeed.get(projectId);
  // the slots this process leased since count against the free slots the last check saw
  if (last && options.leased) last.free -= options.leased;
  const running = inFlight.get(projectId);
  if (running) {
    again.add(projectId);
    return running;
  }
  if (!options.waiting && last && Date.now() - last.at < HEADROOM_FOR_MS && last.free >= last.target) return Promise.resolve(0);
  const run = (async () => {
    let drawn = 0;
    do {
      again.delete(projectId);
      drawn += await drawStageIfNeeded(projectId, requester).catch((error: unknown) => {
        logger().error({ projectId, err: error instanceof Error ? error.message : String(error) }, "drawing a stage failed");
        return 0;
      });
    } while (again.has(projectId));
    return drawn;
  })().finally(() => inFlight.delete(projectId));
  inFlight.set(projectId, run);
  return run;
}

/** Waits for every stage draw in flight (tests, and a process about to stop). */
export async function stageDrawsSettled(): Promise<void> {
  while (inFlight.size) await Promise.all([...inFlight.values()]);
}

/**
 * The last stage of the longest prefix of settled stages (every task answered by its overlap),
 * or -1: rounds estimate from that prefix only, so every stage they weight is complete.
 */
export async function settledThrough(tx: Tx, projectId: string): Promise<number> {
  // draw orders grow with the stage index: the earliest open task is in the first unsettled stage
  const open = await tx.task.findFirst({ where: { projectId, done: false }, orderBy: { drawOrder: "asc" }, select: { batch: { select: { index: true } } } });
  if (open) return open.batch.index - 1;
  const last = await tx.batch.findFirst({ where: { projectId }, orderBy: { index: "desc" }, select: { index: true } });
  return last?.index ?? -1;
}
