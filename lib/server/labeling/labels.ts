import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Label } from "@/lib/generated/prisma/client";
import { db, lockProject, notifyProjectChanged, transaction } from "../db";
import { nullableNumber, rawBoolean } from "../raw-values";
import { badRequest, conflict, notFound } from "../errors";
import { requireProjectRole } from "../auth/project-access";
import { cancelQueuedRound, maybeEnqueueRound } from "../rounds/round-job";
import type { SessionUser } from "../auth/session";
import { TASK_LEASE_MS, countedLabels } from "./tasks";

/**
 * Labels (ARCHITECTURE.md contract): clusterwise a class index, pairwise same | different;
 * "skip" and "unsure" are kept as answers but leave the task unlabeled and do not count toward
 * the budget. A POST carries an idempotency key, so a retry returns the first label instead of
 * adding one. Every change (create, withdraw, correct, resolve) is kept in LabelChange.
 */
export const submitLabelInput = z.object({
  taskId: z.string().min(1, "taskId is required."),
  idempotencyKey: z.string().min(8, "idempotencyKey must be at least 8 characters (use a UUID per label).").max(100),
  kind: z.enum(["label", "skip", "unsure"], "kind must be label, skip or unsure."),
  classIndex: z.number().int().min(0).optional(),
  answer: z.enum(["same", "different"], "answer must be same or different.").optional(),
  reason: z.string().trim().max(500).optional(),
  /** how long the answer took, as the label page measures it (answer-timer.ts); at most a day */
  durationMs: z
    .number("durationMs is a number of milliseconds.")
    .int("durationMs is a whole number of milliseconds.")
    .min(0, "durationMs cannot be negative.")
    .max(86_400_000, "durationMs is at most a day (86400000 ms); leave it out when the time is unknown.")
    .optional(),
  /** how many "same class?" answers the one-class-at-a-time view took for it (Project.labelBy verify) */
  verifyAnswers: z
    .number("verifyAnswers is a number of answers.")
    .int("verifyAnswers is a whole number of answers.")
    .min(0, "verifyAnswers cannot be negative.")
    .max(10_000, "verifyAnswers is at most 10000 (one answer per class); leave it out when the class was picked from the list.")
    .optional(),
});
export type SubmitLabelInput = z.infer<typeof submitLabelInput>;

export const correctLabelInput = z.object({
  classIndex: z.number().int().min(0).optional(),
  answer: z.enum(["same", "different"]).optional(),
});
export const resolveTieInput = correctLabelInput;

/** The value a label shows in the audit trail and exports. */
export function labelValue(label: Pick<Label, "kind" | "classIndex" | "answer">): string {
  if (label.kind !== "label") return label.kind;
  return label.answer ?? String(label.classIndex);
}

function checkValue(mode: string, classes: number, value: { kind?: string; classIndex?: number; answer?: string }) {
  if (value.kind && value.kind !== "label") return;
  if (mode === "pairwise") {
    if (!value.answer) throw badRequest("A pairwise label needs answer: same or different.");
    if (value.classIndex !== undefined) throw badRequest("A pairwise label has an answer, not a classIndex.");
  } else {
    if (value.classIndex === undefined) throw badRequest("A clusterwise label needs classIndex.");
    if (value.classIndex >= classes) throw badRequest(`classIndex ${value.classIndex} is not a class of this project (0..${classes - 1}).`);
    if (value.answer) throw badRequest("A clusterwise label has a classIndex, not an answer.");
  }
}

function checkVerifyAnswers(mode: string, input: SubmitLabelInput) {
  if (input.verifyAnswers !== undefined && mode === "pairwise") throw badRequest("verifyAnswers counts the answers of a clusterwise label given one class at a time; a pairwise answer has none.");
}

const sameContent = (label: Pick<Label, "taskId" | "kind" | "classIndex" | "answer">, input: SubmitLabelInput) =>
  label.taskId === input.taskId && label.kind === input.kind && (label.classIndex ?? undefined) === input.classIndex && (label.answer ?? undefined) === input.answer;

type StoredLabel = Pick<Label, "id" | "taskId" | "kind" | "classIndex" | "answer" | "withdrawn" | "durationMs" | "verifyAnswers" | "createdAt">;

/**
 * An answer, in one transaction of plain SQL both databases run (issue #18: a Prisma model query
 * cost about three times the CPU of the same raw query, and a label POST ran nine of them while it
 * held the project's lock): the idempotency key's label, then the project, the task and its
 * answers in one read, then the lease ended, the label, its audit row and the task's state
 * written, and the progress.
 */
export async function submitLabel(user: SessionUser, projectId: string, input: SubmitLabelInput) {
  await requireProjectRole(user, projectId);
  const result = await transaction(async (tx) => {
    await lockProject(tx, projectId);
    const [existing] = await tx.$queryRaw<Record<string, unknown>[]>`
      SELECT "id", "taskId", "kind", "classIndex", "answer", "withdrawn", "durationMs", "verifyAnswers", "createdAt" FROM "Label"
      WHERE "userId" = ${user.id} AND "idempotencyKey" = ${input.idempotencyKey}`;
    if (existing) {
      const label = storedLabel(existing);
      if (!sameContent(label, input)) throw conflict("This idempotency key was already used for a different label; send a new key for a new label.");
      return { label, duplicate: true, done: false, progress: undefined };
    }
    // the project with its number of classes (a class index is checked against it), the task, and its answers: whether a round used one, how many stand, whether one is this user's
    const [row] = await tx.$queryRaw<Record<string, unknown>[]>`
      SELECT p."mode", p."overlap", p."budget", (SELECT COUNT(*) FROM "ReferenceClass" c WHERE c."projectId" = p."id") AS "classes",
        t."id" AS "taskId",
        (SELECT MIN(l."usedByRound") FROM "Label" l WHERE l."taskId" = t."id") AS "usedBy",
        (SELECT COUNT(*) FROM "Label" l WHERE l."taskId" = t."id" AND l."withdrawn" = false) AS "standing",
        (SELECT COUNT(*) FROM "Label" l WHERE l."taskId" = t."id" AND l."withdrawn" = false AND l."userId" = ${user.id}) AS "mine"
      FROM "Project" p LEFT JOIN "Task" t ON t."id" = ${input.taskId} AND t."projectId" = p."id"
      WHERE p."id" = ${projectId}`;
    if (!row) throw notFound("No project with this id.");
    const project = { mode: String(row.mode), overlap: Number(row.overlap), budget: Number(row.budget) };
    checkValue(project.mode, Number(row.classes), input);
    checkVerifyAnswers(project.mode, input);
    if (row.taskId === null || row.taskId === undefined) throw notFound("No task with this id in this project.");
    if (row.usedBy !== null && row.usedBy !== undefined) throw conflict(`This task was already used by round ${Number(row.usedBy)}; its labels can only be corrected by the owner.`);
    if (Number(row.mine) > 0) throw conflict("You already answered this task.");
    // the answer ends the user's lease; without one the task is not theirs to answer (the transaction rolls back on a later error)
    const leases = await tx.$executeRaw`DELETE FROM "Lease" WHERE "taskId" = ${input.taskId} AND "userId" = ${user.id}`;
    if (!leases) throw conflict("This task is not leased to you: your lease expired and the task went to someone else. Ask for the next task.");

    const now = new Date();
    const label: StoredLabel = {
      id: randomUUID(),
      taskId: input.taskId,
      kind: input.kind,
      classIndex: input.kind === "label" ? (input.classIndex ?? null) : null,
      answer: input.kind === "label" ? (input.answer ?? null) : null,
      withdrawn: false,
      durationMs: input.durationMs ?? null,
      verifyAnswers: input.verifyAnswers ?? null,
      createdAt: now,
    };
    await tx.$executeRaw`
      INSERT INTO "Label" ("id", "projectId", "taskId", "userId", "kind", "classIndex", "answer", "reason", "durationMs", "verifyAnswers", "idempotencyKey", "withdrawn", "createdAt", "updatedAt")
      VALUES (${label.id}, ${projectId}, ${label.taskId}, ${user.id}, ${label.kind}, ${label.classIndex}, ${label.answer}, ${input.reason ?? null}, ${label.durationMs}, ${label.verifyAnswers}, ${input.idempotencyKey}, false, ${now}, ${now})`;
    await tx.$executeRaw`
      INSERT INTO "LabelChange" ("id", "labelId", "userId", "action", "newValue", "createdAt") VALUES (${randomUUID()}, ${label.id}, ${user.id}, 'create', ${labelValue(label)}, ${now})`;
    // a task is done once overlap answers are in (ARCHITECTURE.md: ties wait for the owner)
    const done = Number(row.standing) + 1 >= project.overlap;
    await tx.$executeRaw`UPDATE "Task" SET "done" = ${done} WHERE "id" = ${label.taskId}`;
    await notifyProjectChanged(tx, projectId);
    return { label, duplicate: false, done, progress: { labels: await countedLabels(tx, projectId), budget: project.budget } };
  });
  // only a task that became done can make a round due (the settled labels grow); a finishing round checks again itself
  if (result.done) await maybeEnqueueRound(projectId);
  return { label: publicLabel(result.label), duplicate: result.duplicate, progress: result.progress ?? (await progress(projectId)) };
}

/** A Label row read with plain SQL (SQLite gives booleans as 0/1, dates as text; PostgreSQL typed values). */
function storedLabel(row: Record<string, unknown>): StoredLabel {
  return {
    id: String(row.id),
    taskId: String(row.taskId),
    kind: String(row.kind),
    classIndex: nullableNumber(row.classIndex),
    answer: row.answer === null || row.answer === undefined ? null : String(row.answer),
    withdrawn: rawBoolean(row.withdrawn),
    durationMs: nullableNumber(row.durationMs),
    verifyAnswers: nullableNumber(row.verifyAnswers),
    createdAt: new Date(row.createdAt as string | Date),
  };
}

/**
 * `taskId` names the task the client means to undo, which makes a retried undo safe: when that
 * task's answer is already withdrawn (the first try went through but its response was lost),
 * nothing more is undone and the answer says so (duplicate).
 */
export const undoLabelInput = z.object({ taskId: z.string().min(1).optional() });

/** Withdraws the user's last answer while no round has used it, and leases its task back to them. */
export async function undoLastLabel(user: SessionUser, projectId: string, input: z.infer<typeof undoLabelInput> = {}) {
  await requireProjectRole(user, projectId);
  const undone = await transaction(async (tx) => {
    await lockProject(tx, projectId);
    const last = await tx.label.findFirst({ where: { projectId, userId: user.id, withdrawn: false }, orderBy: { createdAt: "desc" } });
    if (input.taskId && last?.taskId !== input.taskId) {
      const mine = await tx.label.findFirst({ where: { projectId, taskId: input.taskId, userId: user.id }, orderBy: { createdAt: "desc" } });
      if (mine?.withdrawn) return { label: mine, duplicate: true };
      throw conflict(mine ? "This item's answer is no longer your last one; only your last answer can be undone." : "You have no answer on this item to undo.");
    }
    if (!last) throw conflict("There is no label of yours to undo.");
    if (last.usedByRound !== null) throw conflict(`Your last label was already used by round ${last.usedByRound}; ask the project's owner to correct it.`);
    await tx.label.update({ where: { id: last.id }, data: { withdrawn: true } });
    await tx.labelChange.create({ data: { labelId: last.id, userId: user.id, action: "withdraw", oldValue: labelValue(last) } });
    await tx.task.update({ where: { id: last.taskId }, data: { done: false } });
    const expiresAt = new Date(Date.now() + TASK_LEASE_MS);
    await tx.lease.upsert({
      where: { taskId_userId: { taskId: last.taskId, userId: user.id } },
      create: { taskId: last.taskId, userId: user.id, expiresAt },
      update: { expiresAt },
    });
    await notifyProjectChanged(tx, projectId);
    return { label: last, duplicate: false };
  });
  if (!undone.duplicate) await cancelQueuedRound(projectId);
  return { taskId: undone.label.taskId, label: publicLabel({ ...undone.label, withdrawn: true }), duplicate: undone.duplicate, progress: await progress(projectId) };
}

/** The owner sets a label's value; the next round uses it. */
export async function correctLabel(user: SessionUser, projectId: string, labelId: string, input: z.infer<typeof correctLabelInput>) {
  await requireProjectRole(user, projectId, "OWNER");
  return transaction(async (tx) => {
    const label = await tx.label.findFirst({ where: { id: labelId, projectId, withdrawn: false }, include: { project: { include: { _count: { select: { classes: true } } } } } });
    if (!label) throw notFound("No label with this id in this project (or it was withdrawn).");
    if (label.kind !== "label") throw conflict(`This answer is a ${label.kind}, not a label; it has no value to correct.`);
    checkValue(label.project.mode, label.project._count.classes, { kind: "label", ...input });
    const updated = await tx.label.update({ where: { id: label.id }, data: { classIndex: input.classIndex ?? null, answer: input.answer ?? null } });
    await tx.labelChange.create({ data: { labelId: label.id, userId: user.id, action: "correct", oldValue: labelValue(label), newValue: labelValue(updated) } });
    return { label: publicLabel(updated) };
  });
}

/** The owner decides a task whose overlap labels tie; the resolution is audited on each label. */
export async function resolveTie(user: SessionUser, projectId: string, taskId: string, input: z.infer<typeof resolveTieInput>) {
  await requireProjectRole(user, projectId, "OWNER");
  return transaction(async (tx) => {
    const task = await tx.task.findFirst({ where: { id: taskId, projectId }, include: { labels: { where: { withdrawn: false, kind: "label" } }, project: { include: { _count: { select: { classes: true } } } } } });
    if (!task) throw notFound("No task with this id in this project.");
    checkValue(task.project.mode, task.project._count.classes, { kind: "label", ...input });
    if (!task.done || majority(task.labels) !== null) throw conflict("This task has no tie to resolve.");
    const resolved = input.answer ?? String(input.classIndex);
    await tx.task.update({ where: { id: task.id }, data: { resolvedClassIndex: input.classIndex ?? null, resolvedAnswer: input.answer ?? null, resolvedById: user.id } });
    for (const label of task.labels) {
      await tx.labelChange.create({ data: { labelId: label.id, userId: user.id, action: "resolve", oldValue: labelValue(label), newValue: resolved } });
    }
    return { taskId: task.id, resolved };
  });
}

/** The majority value among a task's labels, or null on a tie (or none). */
export function majority(labels: readonly Pick<Label, "kind" | "classIndex" | "answer">[]): string | null {
  const counts = new Map<string, number>();
  for (const l of labels) if (l.kind === "label") counts.set(labelValue(l), (counts.get(labelValue(l)) ?? 0) + 1);
  const sorted = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  if (!sorted.length || (sorted.length > 1 && sorted[0][1] === sorted[1][1])) return null;
  return sorted[0][0];
}

/** The project's counted labels and budget (`budget` when the caller has just read it). */
export async function progress(projectId: string, budget?: number) {
  budget ??= (await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { budget: true } })).budget;
  return { labels: await countedLabels(db(), projectId), budget };
}

function publicLabel(label: StoredLabel) {
  return {
    id: label.id,
    taskId: label.taskId,
    kind: label.kind,
    classIndex: label.classIndex,
    answer: label.answer,
    withdrawn: label.withdrawn,
    durationMs: label.durationMs,
    verifyAnswers: label.verifyAnswers,
    createdAt: label.createdAt,
  };
}

