import { db } from "../db";
import { AppError } from "../errors";

/**
 * How long a project's answers take (issue #25): the label page times each answer (visible time,
 * gaps over 60 s cut; `Label.durationMs`), and the median over every timed answer of the project's
 * mode is the pace the simulations and the pairwise grid turn into AEC per annotator-hour. Skips
 * and unsure answers count: they cost time too. Withdrawn labels do not.
 */
export interface AnswerTime {
  readonly mode: "clusterwise" | "pairwise";
  readonly timedAnswers: number;
  /** null without a timed answer */
  readonly medianSeconds: number | null;
}

export function answerTime(mode: string, durationsMs: readonly number[]): AnswerTime {
  return { mode: mode === "pairwise" ? "pairwise" : "clusterwise", timedAnswers: durationsMs.length, medianSeconds: medianSeconds(durationsMs) };
}

/** The project's answer time, with its id and name; `project` is an id or an exact name (404 for neither). */
export async function projectAnswerTime(project: string): Promise<AnswerTime & { readonly projectId: string; readonly name: string }> {
  const found = await db().project.findFirst({ where: { OR: [{ id: project }, { name: project }] }, select: { id: true, name: true, mode: true } });
  if (!found) throw new AppError("not_found", `No project with id or name ${project}.`);
  const labels = await db().label.findMany({ where: { projectId: found.id, withdrawn: false, durationMs: { not: null } }, select: { durationMs: true } });
  return { projectId: found.id, name: found.name, ...answerTime(found.mode, labels.map((l) => l.durationMs!)) };
}

/** The median of durations in ms, in seconds; null without any */
export function medianSeconds(durationsMs: readonly number[]): number | null {
  if (durationsMs.length === 0) return null;
  const sorted = [...durationsMs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return (sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2) / 1000;
}
