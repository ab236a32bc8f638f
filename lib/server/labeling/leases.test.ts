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
});
