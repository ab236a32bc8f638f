import { describe, expect, it } from "vitest";
import * as examplesRoute from "@/app/api/projects/[projectId]/examples/route";
import { db } from "../db";
import { digitsProject } from "./labeling-test-fixture";
import { submitLabel } from "./labels";
import { nextTasks } from "./tasks";
import { requestAs, routeContext } from "../http/test-requests";

const userRow = (id: string) => db().user.findUniqueOrThrow({ where: { id } });

describe("class examples", () => {
  it("shows the newest labeled items per class from labels given in the app, never withdrawn ones", async () => {
    const { projectId, annotators } = await digitsProject();
    const [a] = annotators;
    const tasks = (await nextTasks(a, projectId, 5)).tasks;
    // Class 3 gets tasks 0, 1, 2 (newest last); class 7 gets task 3, then task 4 whose label is withdrawn.
    const answers = [3, 3, 3, 7, 7];
    for (const [i, task] of tasks.entries()) {
      await submitLabel(a, projectId, { taskId: task.id, kind: "label", classIndex: answers[i], idempotencyKey: `example-key-${i}` });
      // createdAt has millisecond resolution; keep the order unambiguous
      await new Promise((r) => setTimeout(r, 5));
    }
    const withdrawn = await db().label.findFirstOrThrow({ where: { taskId: tasks[4].id } });
    await db().label.update({ where: { id: withdrawn.id }, data: { withdrawn: true } });

    const response = await examplesRoute.GET(await requestAs(await userRow(a.id), `/api/projects/${projectId}/examples?perClass=2`), routeContext({ projectId }));
    expect(response.status).toBe(200);
    const { examples } = (await response.json()) as { examples: { classIndex: number; items: { index: number; imageUrl: string | null }[] }[] };
    expect(examples).toHaveLength(10);
    expect(examples[3].items.map((i) => i.index)).toEqual([tasks[2].item.index, tasks[1].item.index]);
    expect(examples[7].items.map((i) => i.index)).toEqual([tasks[3].item.index]);
    expect(examples[0].items).toEqual([]);

    const tooMany = await examplesRoute.GET(await requestAs(await userRow(a.id), `/api/projects/${projectId}/examples?perClass=50`), routeContext({ projectId }));
    expect(tooMany.status).toBe(400);
  });
});
