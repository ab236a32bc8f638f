import { z } from "zod";
import { ensureSeedBatch } from "./batches";
import { lockProject, transaction, type Tx } from "../db";
import { itemView, type ItemView } from "./item-view";
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
}

export async function nextTasks(user: SessionUser, projectId: string, count: number): Promise<{ tasks: TaskView[]; state: QueueState; message?: string }> {
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

/** One transaction: the user's leased tasks first, then free slots by draw order, leased to them. Never draws. */
async function leaseTasks(user: SessionUser, projectId: string, count: number): Promise<{ tasks: TaskView[]; state: QueueState; message?: string }> {
  const now = new Date();
  return transaction(async (tx) => {
    await lockProject(tx, projectId);
    const project = await tx.project.findUniqueOrThrow({ where: { id: projectId } });
    if (project.paused) return { tasks: [], state: "paused" as const, message: "The owner paused this project; no tasks are handed out until it resumes." };
    await ensureSeedBatch(tx, project);
    const labels = await countedLabels(tx, projectId);
    if (labels >= project.budget) return { tasks: [], state: "budget_reached" as const, message: `The budget of ${project.budget} labels is reached. Thank you!` };

    const chosen = await availableTasks(tx, project, user.id, now, count);
    if (chosen.length === 0) {
      return { tasks: [], state: "waiting" as const, message: "Every remaining task of the budget is taken by other annotators right now; tasks come back when their leases end or answers are undone." };
    }

    const expiresAt = new Date(now.getTime() + TASK_LEASE_MS);
    for (const taskId of chosen) {
      // Others' expired leases on this task end here: their late answers are refused (409).
      await tx.lease.deleteMany({ where: { taskId, userId: { not: user.id }, expiresAt: { lte: now } } });
      await tx.lease.upsert({ where: { taskId_userId: { taskId, userId: user.id } }, create: { taskId, userId: user.id, expiresAt }, update: { expiresAt } });
    }
    const tasks = await tx.task.findMany({ where: { id: { in: chosen } }, include: { batch: { select: { index: true, drawnByRoundIndex: true } } }, orderBy: { drawOrder: "asc" } });
    const items = await tx.item.findMany({
      where: { projectId, index: { in: tasks.flatMap((t) => (t.itemIndexB === null ? [t.itemIndex] : [t.itemIndex, t.itemIndexB])) } },
    });
    const byIndex = new Map(items.map((i) => [i.index, i]));
    const view = (index: number) => itemView(projectId, index, byIndex.get(index));
    return {
      state: "ok" as const,
      tasks: tasks.map((t) => ({
        id: t.id,
        stage: t.batch.index,
        drawnByRound: t.batch.drawnByRoundIndex,
        leaseExpiresAt: expiresAt.toISOString(),
        item: view(t.itemIndex),
        itemB: t.itemIndexB === null ? null : view(t.itemIndexB),
      })),
    };
  });
}

/** Labels that count toward the budget (ARCHITECTURE.md: skips and unsure do not). */
export function countedLabels(tx: Tx, projectId: string) {
  return tx.label.count({ where: { projectId, kind: "label", withdrawn: false } });
}

/** Tasks the user may take now: theirs already (still leased) first, then free slots by draw order. */
async function availableTasks(tx: Tx, project: { id: string; overlap: number }, userId: string, now: Date, count: number): Promise<string[]> {
  const open = await tx.task.findMany({
    where: { projectId: project.id, done: false },
    orderBy: { drawOrder: "asc" },
    select: {
      id: true,
      labels: { where: { withdrawn: false }, select: { userId: true } },
      leases: { where: { expiresAt: { gt: now } }, select: { userId: true } },
    },
  });
  const mine = open.filter((t) => t.leases.some((l) => l.userId === userId) && !t.labels.some((l) => l.userId === userId));
  const free = open.filter(
    (t) =>
      !t.labels.some((l) => l.userId === userId) &&
      !t.leases.some((l) => l.userId === userId) &&
      t.labels.length + t.leases.length < project.overlap,
  );
  return [...mine, ...free].slice(0, count).map((t) => t.id);
}

