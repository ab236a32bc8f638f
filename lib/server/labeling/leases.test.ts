import { describe, expect, it } from "vitest";
import * as releaseRoute from "@/app/api/projects/[projectId]/tasks/release/route";
import { db } from "../db";
import { digitsProject } from "./labeling-test-fixture";
import { submitLabel } from "./labels";
import { nextTasks } from "./tasks";
import { requestAs, routeContext } from "../http/test-requests";

describe("releasing leases", () => {
  it("returns a leaving annotator's unanswered tasks to the pool at once; others' leases stay", async () => {
    const { projectId, annotators } = await digitsProject({ seedSize: 6 });
    const [a, b] = annotators;
    const mine = (await nextTasks(a, projectId, 4)).tasks.map((t) => t.id);
    const theirs = (await nextTasks(b, projectId, 2)).tasks.map((t) => t.id);
    await submitLabel(a, projectId, { taskId: mine[0], kind: "label", classIndex: 1, idempotencyKey: "release-answered" });

    const response = await releaseRoute.POST(
      await requestAs(await db().user.findUniqueOrThrow({ where: { id: a.id } }), `/api/projects/${projectId}/tasks/release`, { method: "POST", json: { taskIds: [...mine, ...theirs] } }),
      routeContext({ projectId }),
    );
    expect(response.status).toBe(200);
    // mine[0] was answered (its lease ended with the answer); theirs are b's and untouched
    expect(await response.json()).toEqual({ released: 3 });
    const next = (await nextTasks(b, projectId, 5)).tasks.map((t) => t.id);
    expect(next.sort()).toEqual([...theirs, ...mine.slice(1)].sort());
  });

  it("asking again renews the held tasks' leases in place and leases new ones beside them", async () => {
    const { projectId, annotators } = await digitsProject({ seedSize: 6 });
    const [a] = annotators;
    const held = (await nextTasks(a, projectId, 2)).tasks.map((t) => t.id);
    // the held leases are about to run out
    const soon = new Date(Date.now() + 60_000);
    await db().lease.updateMany({ where: { userId: a.id }, data: { expiresAt: soon } });
    const before = await db().lease.findMany({ where: { userId: a.id }, orderBy: { taskId: "asc" } });

    const again = (await nextTasks(a, projectId, 4)).tasks;
    expect(again.slice(0, 2).map((t) => t.id).sort()).toEqual([...held].sort());
    const after = await db().lease.findMany({ where: { userId: a.id } });
    expect(after).toHaveLength(4);
    for (const lease of before) {
      const renewed = after.find((l) => l.taskId === lease.taskId)!;
      expect(renewed.id).toBe(lease.id);
      expect(renewed.expiresAt.getTime()).toBeGreaterThan(soon.getTime() + 8 * 60_000);
    }
    for (const task of again) expect(after.find((l) => l.taskId === task.id)!.expiresAt.toISOString()).toBe(task.leaseExpiresAt);
  });
});
