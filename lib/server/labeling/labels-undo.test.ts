import { describe, expect, it } from "vitest";
import { db } from "../db";
import { digitsProject } from "./labeling-test-fixture";
import { submitLabel, undoLastLabel } from "./labels";
import { nextTasks } from "./tasks";

describe("undo naming its task", () => {
  it("a retried undo whose first try went through withdraws nothing more", async () => {
    const { projectId, annotators } = await digitsProject({ seedSize: 3 });
    const [a] = annotators;
    const [first, second] = (await nextTasks(a, projectId, 2)).tasks;
    await submitLabel(a, projectId, { taskId: first.id, kind: "label", classIndex: 1, idempotencyKey: "undo-retry-1" });
    await new Promise((r) => setTimeout(r, 5));
    await submitLabel(a, projectId, { taskId: second.id, kind: "label", classIndex: 2, idempotencyKey: "undo-retry-2" });

    const undone = await undoLastLabel(a, projectId, { taskId: second.id });
    expect(undone).toMatchObject({ taskId: second.id, duplicate: false, progress: { labels: 1 } });
    const retried = await undoLastLabel(a, projectId, { taskId: second.id });
    expect(retried).toMatchObject({ taskId: second.id, duplicate: true, progress: { labels: 1 } });
    const live = await db().label.findMany({ where: { projectId, withdrawn: false } });
    expect(live.map((l) => l.taskId)).toEqual([first.id]);
  });

  it("refuses to undo a task whose answer is not the last one", async () => {
    const { projectId, annotators } = await digitsProject({ seedSize: 3 });
    const [a] = annotators;
    const [first, second, third] = (await nextTasks(a, projectId, 3)).tasks;
    await submitLabel(a, projectId, { taskId: first.id, kind: "label", classIndex: 1, idempotencyKey: "undo-order-1" });
    await new Promise((r) => setTimeout(r, 5));
    await submitLabel(a, projectId, { taskId: second.id, kind: "skip", idempotencyKey: "undo-order-2" });
    await expect(undoLastLabel(a, projectId, { taskId: first.id })).rejects.toThrow("This item's answer is no longer your last one; only your last answer can be undone.");
    await expect(undoLastLabel(a, projectId, { taskId: third.id })).rejects.toThrow("You have no answer on this item to undo.");
    expect(await db().label.count({ where: { projectId, withdrawn: false } })).toBe(2);
  });
});
