import type { ProjectSnapshot } from "@/lib/server/live/events";
import type { TaskView } from "@/lib/server/labeling/tasks";

/** How a stage is named on the label page: the seed stage, then stage 1, 2, ... */
export function stageName(stage: number): string {
  return stage === 0 ? "Seed stage" : `Stage ${stage}`;
}

/**
 * What the workspace's live regions say. Each changes only when its news does: a new item, saved
 * versus in trouble (not each answer's save), a round's phase (not its training steps).
 */
export function itemAnnouncement(current: TaskView | null, notice: string | null, question?: { name: string; position: number; total: number } | null): string {
  if (!current) return notice ?? "";
  const place = stageName(current.stage).toLowerCase();
  if (current.itemB) return `Pair ${current.item.externalId} and ${current.itemB.externalId}, ${place}`;
  // one class at a time, each new question is news too
  return `Item ${current.item.externalId}, ${place}${question ? `. Same class as ${question.name}? Class ${question.position} of ${question.total}` : ""}`;
}

/** null while answers are merely on their way, so the last news stands. */
export function saveAnnouncement(unsaved: number, retrying: boolean): string | null {
  if (retrying) return "Connection trouble: your answers are kept and sent again";
  return unsaved === 0 ? "All answers saved" : null;
}

export function roundText(round: ProjectSnapshot["round"]): string {
  if (!round) return "";
  const progress = round.progress;
  if (round.status === "queued") return `Round ${round.index} queued`;
  if (round.status === "failed") return `Round ${round.index} failed; the owner can retry it`;
  if (progress?.phase === "training") return `Round ${round.index} training`;
  if (progress?.phase === "writing") return `Round ${round.index} saving results`;
  return `Round ${round.index} running`;
}

export function roundAnnouncement(round: ProjectSnapshot["round"], lastRound: ProjectSnapshot["lastRound"]): string {
  if (round) return roundText(round);
  return lastRound ? `Round ${lastRound.index} finished` : "";
}
