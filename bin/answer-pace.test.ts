import { describe, expect, it } from "vitest";
import { db } from "@/lib/server/db";
import { digitsProject } from "@/lib/server/labeling/labeling-test-fixture";
import { submitLabel, undoLastLabel } from "@/lib/server/labeling/labels";
import { nextTasks } from "@/lib/server/labeling/tasks";
import type { SessionUser } from "@/lib/server/auth/session";
import { answerPace } from "./answer-pace";
import { CommandError } from "./project-commands";

let key = 0;
async function answer(user: SessionUser, projectId: string, durationMs: number | undefined, kind: "label" | "skip" = "label") {
  const [task] = (await nextTasks(user, projectId, 1)).tasks;
  const value = task.itemB ? { answer: "same" as const } : { classIndex: 0 };
  return submitLabel(user, projectId, { taskId: task.id, kind, ...(kind === "label" ? value : {}), durationMs, idempotencyKey: `pace-${key++}` });
}

describe("--seconds-per-answer", () => {
  it("takes a number as given", async () => {
    expect(await answerPace("3.6", "pairwise")).toEqual({ seconds: 3.6, source: "given" });
    expect(await answerPace(undefined, "pairwise")).toBeUndefined();
    for (const bad of ["0", "-2", "fast", ""]) await expect(answerPace(bad, "clusterwise")).rejects.toThrow(CommandError);
  });

  it("project:PROJECT takes the median of the project's timed answers (skips count, untimed and withdrawn ones do not), by id or name", async () => {
    const { projectId, annotators } = await digitsProject({ seedSize: 8 });
    const name = `Paced ${projectId}`;
    await db().project.update({ where: { id: projectId }, data: { name } });
    await answer(annotators[0], projectId, 2000);
    await answer(annotators[0], projectId, 4000);
    await answer(annotators[0], projectId, 9000, "skip");
    await answer(annotators[0], projectId, undefined);
    await answer(annotators[1], projectId, 1500);
    await answer(annotators[1], projectId, 60_000);
    await undoLastLabel(annotators[1], projectId);
    // 1.5, 2, 4, 9 s
    const pace = await answerPace(`project:${projectId}`, "clusterwise");
    expect(pace).toEqual({ seconds: 3, source: `median of the 4 timed answers of project ${name} (${projectId})` });
    expect(await answerPace(`project:${name}`, "clusterwise")).toEqual(pace);
    // a clusterwise pace is not a pair answer's
    await expect(answerPace(`project:${projectId}`, "pairwise")).rejects.toThrow(`project ${name} (${projectId}) is clusterwise, its answers are not pairwise ones`);
  });

  it("project:PROJECT refuses a project without timed answers, and one that does not exist", async () => {
    const { projectId, annotators } = await digitsProject({ mode: "pairwise", seedSize: 8 });
    await answer(annotators[0], projectId, undefined);
    await expect(answerPace(`project:${projectId}`, "pairwise")).rejects.toThrow("has no timed answers yet");
    await answer(annotators[0], projectId, 2500);
    expect((await answerPace(`project:${projectId}`, "pairwise"))?.seconds).toBe(2.5);
    await expect(answerPace("project:no-such-project", "pairwise")).rejects.toThrow("No project with id or name no-such-project.");
  });
});
