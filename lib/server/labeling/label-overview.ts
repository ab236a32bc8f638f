import { z } from "zod";
import { cohenKappa, krippendorffAlphaNominal } from "@/lib/metrics/agreement";
import { db } from "../db";
import { answerTime, medianSeconds } from "./answer-time";
import { itemView } from "./item-view";
import { labelValue, majority } from "./labels";
import { requireProjectRole } from "../auth/project-access";
import type { SessionUser } from "../auth/session";

export const labelOverviewQuery = z.object({
  page: z.coerce.number().int().min(0, "page is 0 or more").default(0),
  pageSize: z.coerce.number().int().min(1).max(100, "pageSize is at most 100").default(12),
});

/**
 * What the owner reads about the labels themselves: the class distribution the estimator sees
 * (a task's majority, or the owner's resolution), labels per annotator with the median seconds an
 * answer took them (answers the label page timed; skips and unsure ones count: they cost time too)
 * and, for labels given one class at a time (labelBy verify), the "same class?" answers a label
 * took; agreement where tasks have several labels, a page of recent labels with their items, and
 * the ties awaiting the owner's resolution. The labeled set is a budget (hundreds to thousands), so it is read whole.
 */
export async function labelOverview(user: SessionUser, projectId: string, query: z.infer<typeof labelOverviewQuery>) {
  await requireProjectRole(user, projectId, "OWNER");
  const project = await db().project.findUniqueOrThrow({
    where: { id: projectId },
    select: { mode: true, overlap: true, itemKind: true, classes: { orderBy: { index: "asc" }, select: { index: true, name: true } } },
  });
  const names = new Map(project.classes.map((c) => [String(c.index), c.name]));
  const valueName = (value: string) => names.get(value) ?? value;
  const tasks = await db().task.findMany({
    where: { projectId, labels: { some: { withdrawn: false } } },
    select: { id: true, itemIndex: true, itemIndexB: true, done: true, resolvedClassIndex: true, resolvedAnswer: true, labels: { where: { withdrawn: false }, select: { userId: true, kind: true, classIndex: true, answer: true, durationMs: true, verifyAnswers: true } } },
    orderBy: { drawOrder: "asc" },
  });

  // class distribution of the values the next round will use
  const distribution = new Map<string, number>();
  const ties: typeof tasks = [];
  for (const task of tasks) {
    if (!task.done) continue;
    const resolved = task.resolvedClassIndex !== null ? String(task.resolvedClassIndex) : task.resolvedAnswer;
    const value = resolved ?? majority(task.labels);
    if (value !== null) distribution.set(value, (distribution.get(value) ?? 0) + 1);
    else if (task.labels.filter((l) => l.kind === "label").length >= 2) ties.push(task);
  }
  const values = project.mode === "pairwise" ? ["same", "different"] : project.classes.map((c) => String(c.index));
  const classes = values.map((value) => ({ value, name: valueName(value), count: distribution.get(value) ?? 0 }));

  const users = await db().user.findMany({
    where: { id: { in: [...new Set(tasks.flatMap((t) => t.labels.map((l) => l.userId)))] } },
    select: { id: true, name: true, email: true },
  });
  const userById = new Map(users.map((u) => [u.id, u]));
  const perUser = new Map<string, { labels: number; skips: number; unsure: number; durations: number[]; verifyAnswers: number[] }>();
  for (const task of tasks) {
    for (const l of task.labels) {
      const row = perUser.get(l.userId) ?? { labels: 0, skips: 0, unsure: 0, durations: [], verifyAnswers: [] };
      if (l.kind === "label") row.labels++;
      else if (l.kind === "skip") row.skips++;
      else row.unsure++;
      if (l.durationMs !== null) row.durations.push(l.durationMs);
      if (l.kind === "label" && l.verifyAnswers !== null) row.verifyAnswers.push(l.verifyAnswers);
      perUser.set(l.userId, row);
    }
  }
  const annotators = [...perUser.entries()]
    .map(([id, { durations, verifyAnswers, ...counts }]) => ({
      userId: id,
      name: userById.get(id)?.name ?? "?",
      email: userById.get(id)?.email ?? "?",
      ...counts,
      timedAnswers: durations.length,
      medianSeconds: medianSeconds(durations),
      ...verification(verifyAnswers),
    }))
    .sort((a, b) => b.labels - a.labels);
  const allDurations = [...perUser.values()].flatMap((u) => u.durations);
  const allVerifyAnswers = [...perUser.values()].flatMap((u) => u.verifyAnswers);

  const total = await db().label.count({ where: { projectId, withdrawn: false } });
  const recentRows = await db().label.findMany({
    where: { projectId, withdrawn: false },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: query.page * query.pageSize,
    take: query.pageSize,
    include: { task: { select: { itemIndex: true, itemIndexB: true } } },
  });
  const itemIndexes = [...new Set([...recentRows, ...ties.map((t) => ({ task: t }))].flatMap((r) => [r.task.itemIndex, ...(r.task.itemIndexB === null ? [] : [r.task.itemIndexB])]))];
  const items = new Map(
    (await db().item.findMany({ where: { projectId, index: { in: itemIndexes } }, select: { index: true, externalId: true, image: true, text: true } })).map((i) => [i.index, i]),
  );
  const viewOf = (index: number) => itemView(projectId, index, items.get(index));
  const recent = recentRows.map((l) => ({
    id: l.id,
    taskId: l.taskId,
    item: viewOf(l.task.itemIndex),
    itemB: l.task.itemIndexB === null ? null : viewOf(l.task.itemIndexB),
    kind: l.kind,
    classIndex: l.classIndex,
    answer: l.answer,
    value: l.kind === "label" ? valueName(labelValue(l)) : l.kind,
    annotator: userById.get(l.userId)?.name ?? "?",
    usedByRound: l.usedByRound,
    createdAt: l.createdAt,
  }));

  return {
    mode: project.mode,
    overlap: project.overlap,
    classes,
    annotators,
    /** the median seconds per answer of this project's mode, over every timed answer */
    answerTime: answerTime(project.mode, allDurations),
    /** labels given one class at a time, over every annotator */
    verification: verification(allVerifyAnswers),
    agreement: agreement(tasks),
    recent: { page: query.page, pageSize: query.pageSize, total, labels: recent },
    ties: ties.map((t) => ({
      taskId: t.id,
      item: viewOf(t.itemIndex),
      itemB: t.itemIndexB === null ? null : viewOf(t.itemIndexB),
      votes: t.labels.filter((l) => l.kind === "label").map((l) => ({ annotator: userById.get(l.userId)?.name ?? "?", value: labelValue(l), name: valueName(labelValue(l)) })),
    })),
  };
}

/** How many labels were given one class at a time, and the mean "same class?" answers each took (null without one). */
function verification(answers: readonly number[]): { verifiedLabels: number; answersPerLabel: number | null } {
  return { verifiedLabels: answers.length, answersPerLabel: answers.length ? answers.reduce((sum, a) => sum + a, 0) / answers.length : null };
}

/**
 * Agreement over the tasks labeled by two or more annotators: Cohen's kappa when exactly two
 * annotators share them, Krippendorff's alpha (nominal) for more, since kappa needs fixed rater pairs.
 */
function agreement(tasks: { labels: { userId: string; kind: string; classIndex: number | null; answer: string | null }[] }[]) {
  const units = tasks.map((t) => t.labels.filter((l) => l.kind === "label")).filter((ls) => ls.length >= 2);
  if (!units.length) return null;
  const raters = [...new Set(units.flatMap((ls) => ls.map((l) => l.userId)))];
  const unanimous = units.filter((ls) => ls.every((l) => labelValue(l) === labelValue(ls[0]))).length / units.length;
  let value: number;
  let method: "cohen" | "krippendorff";
  if (raters.length === 2) {
    method = "cohen";
    const value0 = (ls: typeof units[number], who: string) => labelValue(ls.find((l) => l.userId === who)!);
    value = cohenKappa(units.map((ls) => value0(ls, raters[0])), units.map((ls) => value0(ls, raters[1])));
  } else {
    method = "krippendorff";
    value = krippendorffAlphaNominal(units.map((ls) => ls.map(labelValue)));
  }
  return { method, value: Number.isNaN(value) ? null : value, units: units.length, raters: raters.length, unanimous };
}
