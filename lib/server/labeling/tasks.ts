import { randomUUID } from "node:crypto";
import { z } from "zod";
import { Prisma } from "@/lib/generated/prisma/client";
import { ensureSeedBatch } from "./batches";
import { lockProject, transaction, type Tx } from "../db";
import { nullableNumber, rawBoolean } from "../raw-values";
import { itemView, type ItemView } from "./item-view";
import { taskHints, type TaskHint } from "./class-hints";
import { keepStagesAhead } from "./stages";
import { requireProjectRole } from "../auth/project-access";
import type { SessionUser } from "../auth/session";

/**
 * Handing out tasks. A task has `overlap` slots; a slot is taken by an active lease (10 minutes)
 * or by an answer (label, skip, unsure). An annotator gets tasks they have not answered whose
 * slots are not all taken, in draw order; the whole choice runs in one transaction, so two
 * annotators never get the same slot. Expired leases simply stop counting.
 */
export const TASK_LEASE_MS = 10 * 60_000;
export const nextTasksInput = z.object({ count: z.coerce.number().int().min(1, "count is at least 1").max(10, "count is at most 10").default(1) });

export type QueueState = "ok" | "paused" | "budget_reached" | "waiting";

export interface TaskView {
  id: string;
  /** the stage the task was drawn in (0 = the seed stage) and the round whose ranking drew it */
  stage: number;
  drawnByRound: number | null;
  leaseExpiresAt: string;
  item: ItemView;
  itemB: ItemView | null;
  /** what the one-class-at-a-time view asks first (class-hints.ts); only where the project labels by "verify" */
  hint: TaskHint | null;
}

type Leased = { tasks: TaskView[]; state: QueueState; message?: string };

export async function nextTasks(user: SessionUser, projectId: string, count: number): Promise<Leased> {
  await requireProjectRole(user, projectId);
  const first = await leaseTasks(user, projectId, count);
  if (first.state !== "waiting") {
    // the next stage is drawn after this answer, not inside it
    if (first.state === "ok") void keepStagesAhead(projectId, user.id, { leased: first.tasks.length });
    return first;
  }
  // nothing drawn is free: wait for the draw in flight (or start one), then lease from it
  await keepStagesAhead(projectId, user.id, { waiting: true });
  return leaseTasks(user, projectId, count);
}

/**
 * One transaction: the user's leased tasks first, then free slots by draw order, leased to them. Never draws.
 * Where the project labels by "verify", each task's hint is read after it, from the project-data cache.
 */
async function leaseTasks(user: SessionUser, projectId: string, count: number): Promise<Leased> {
  const { leased, verify } = await leaseInTransaction(user, projectId, count);
  if (!verify || leased.tasks.length === 0) return leased;
  const hints = await taskHints(projectId, verify, leased.tasks.map((t) => t.item.index));
  return { ...leased, tasks: leased.tasks.map((t, i) => ({ ...t, hint: hints[i] })) };
}

async function leaseInTransaction(user: SessionUser, projectId: string, count: number): Promise<{ leased: Leased; verify: { dataPath: string } | null }> {
  const now = new Date();
  return transaction(async (tx) => {
    await lockProject(tx, projectId);
    const project = await tx.project.findUniqueOrThrow({
      where: { id: projectId },
      select: { id: true, n: true, seed: true, seedSize: true, budget: true, mode: true, labelBy: true, dataPath: true, overlap: true, paused: true },
    });
    const verify = project.mode === "clusterwise" && project.labelBy === "verify" ? { dataPath: project.dataPath } : null;
    const answer = (leased: Leased) => ({ leased, verify });
    if (project.paused) return answer({ tasks: [], state: "paused", message: "The owner paused this project; no tasks are handed out until it resumes." });
    await ensureSeedBatch(tx, project);
    const labels = await countedLabels(tx, projectId);
    if (labels >= project.budget) return answer({ tasks: [], state: "budget_reached", message: `The budget of ${project.budget} labels is reached. Thank you!` });

    const chosen = await availableTasks(tx, project, user.id, now, count);
    if (chosen.length === 0) {
      return answer({ tasks: [], state: "waiting", message: "Every remaining task of the budget is taken by other annotators right now; tasks come back when their leases end or answers are undone." });
    }

    const expiresAt = new Date(now.getTime() + TASK_LEASE_MS);
    // Others' expired leases on these tasks end here: their late answers are refused (409).
    const stale = chosen.filter((t) => t.staleLeases).map((t) => t.id);
    if (stale.length) await tx.lease.deleteMany({ where: { taskId: { in: stale }, userId: { not: user.id }, expiresAt: { lte: now } } });
    await leaseAll(tx, chosen.map((t) => t.id), user.id, now, expiresAt);
    const view = (index: number, item: AvailableTask["a"]) => itemView(projectId, index, item ?? undefined);
    return answer({
      state: "ok",
      tasks: chosen.map((t) => ({
        id: t.id,
        stage: t.stage,
        drawnByRound: t.drawnByRound,
        leaseExpiresAt: expiresAt.toISOString(),
        item: view(t.itemIndex, t.a),
        itemB: t.itemIndexB === null ? null : view(t.itemIndexB, t.b),
        hint: null,
      })),
    });
  });
}

/**
 * Leases these tasks to the user until `expiresAt` in one statement: a new lease, or the user's
 * own lease on it renewed (the label page asks for its held tasks again with each refill).
 */
async function leaseAll(tx: Tx, taskIds: readonly string[], userId: string, now: Date, expiresAt: Date) {
  const rows = taskIds.map((taskId) => Prisma.sql`(${randomUUID()}, ${taskId}, ${userId}, ${expiresAt}, ${now})`);
  await tx.$executeRaw`
    INSERT INTO "Lease" ("id", "taskId", "userId", "expiresAt", "createdAt") VALUES ${Prisma.join(rows)}
    ON CONFLICT ("taskId", "userId") DO UPDATE SET "expiresAt" = excluded."expiresAt"`;
}

/** Labels that count toward the budget (ARCHITECTURE.md: skips and unsure do not); read from the index on (projectId, kind, withdrawn). */
export async function countedLabels(tx: Tx, projectId: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: unknown }[]>`SELECT COUNT(*) AS "n" FROM "Label" WHERE "projectId" = ${projectId} AND "kind" = 'label' AND "withdrawn" = false`;
  return Number(row.n);
}

interface AvailableTask {
  id: string;
  itemIndex: number;
  itemIndexB: number | null;
  stage: number;
  drawnByRound: number | null;
  /** another annotator's lease on it has expired (and is to be ended) */
  staleLeases: boolean;
  a: { externalId: string; text: string | null; image: string | null } | null;
  b: { externalId: string; text: string | null; image: string | null } | null;
}

/**
 * Tasks the user may take now, with their stage and items: theirs already (still leased, not
 * answered) first, then free slots (not answered or leased by them, fewer than `overlap`
 * answers and live leases) by draw order. One query that returns only the chosen tasks: the
 * open tasks' labels and leases are counted in SQL, not loaded (issue #18: the three relation
 * reads and their mapping were the largest cost of a next-task call). Plain SQL both databases run.
 */
async function availableTasks(tx: Tx, project: { id: string; overlap: number }, userId: string, now: Date, count: number): Promise<AvailableTask[]> {
  const rows = await tx.$queryRaw<Record<string, unknown>[]>`
    SELECT t."id", t."itemIndex", t."itemIndexB", b."index" AS "stage", b."drawnByRoundIndex" AS "drawnByRound",
      EXISTS (SELECT 1 FROM "Lease" s WHERE s."taskId" = t."id" AND s."userId" <> ${userId} AND s."expiresAt" <= ${now}) AS "staleLeases",
      ia."externalId" AS "aExternalId", ia."text" AS "aText", ia."image" AS "aImage",
      ib."externalId" AS "bExternalId", ib."text" AS "bText", ib."image" AS "bImage"
    FROM (
      SELECT t0.*,
        EXISTS (SELECT 1 FROM "Lease" m WHERE m."taskId" = t0."id" AND m."userId" = ${userId} AND m."expiresAt" > ${now}) AS "mine"
      FROM "Task" t0
      WHERE t0."projectId" = ${project.id} AND t0."done" = false
        AND NOT EXISTS (SELECT 1 FROM "Label" l WHERE l."taskId" = t0."id" AND l."userId" = ${userId} AND l."withdrawn" = false)
    ) t
    JOIN "Batch" b ON b."id" = t."batchId"
    LEFT JOIN "Item" ia ON ia."projectId" = t."projectId" AND ia."index" = t."itemIndex"
    LEFT JOIN "Item" ib ON ib."projectId" = t."projectId" AND ib."index" = t."itemIndexB"
    WHERE t."mine"
      OR (SELECT COUNT(*) FROM "Label" l WHERE l."taskId" = t."id" AND l."withdrawn" = false)
        + (SELECT COUNT(*) FROM "Lease" s WHERE s."taskId" = t."id" AND s."expiresAt" > ${now}) < ${project.overlap}
    ORDER BY CASE WHEN t."mine" THEN 0 ELSE 1 END, t."drawOrder"
    LIMIT ${count}`;
  const item = (externalId: unknown, text: unknown, image: unknown) =>
    externalId === null || externalId === undefined ? null : { externalId: String(externalId), text: (text as string | null) ?? null, image: (image as string | null) ?? null };
  return rows.map((r) => ({
    id: String(r.id),
    itemIndex: Number(r.itemIndex),
    itemIndexB: nullableNumber(r.itemIndexB),
    stage: Number(r.stage),
    drawnByRound: nullableNumber(r.drawnByRound),
    staleLeases: rawBoolean(r.staleLeases),
    a: item(r.aExternalId, r.aText, r.aImage),
    b: item(r.bExternalId, r.bText, r.bImage),
  }));
}
