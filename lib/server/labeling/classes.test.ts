import { describe, expect, it } from "vitest";
import * as classesRoute from "@/app/api/projects/[projectId]/classes/route";
import { db } from "../db";
import { digitsProject } from "./labeling-test-fixture";
import { submitLabel } from "./labels";
import { nextTasks } from "./tasks";
import { createTestUser, requestAs, routeContext } from "../http/test-requests";

const userRow = (id: string) => db().user.findUniqueOrThrow({ where: { id } });

describe("open-mode classes", () => {
  it("a member adds a class in open mode; it takes the next index and can be labeled with", async () => {
    const { projectId, annotators } = await digitsProject();
    await db().project.update({ where: { id: projectId }, data: { classMode: "open" } });
    const post = async (userId: string, json: unknown) =>
      classesRoute.POST(await requestAs(await userRow(userId), `/api/projects/${projectId}/classes`, { method: "POST", json }), routeContext({ projectId }));

    const created = await post(annotators[0].id, { name: "  Smudge ", description: "Not a digit at all" });
    expect(created.status).toBe(200);
    expect((await created.json()).class).toEqual({ index: 10, name: "Smudge", description: "Not a digit at all" });

    const duplicate = await post(annotators[1].id, { name: "smudge" });
    expect(duplicate.status).toBe(409);
    expect((await duplicate.json()).error.message).toBe('A class named "Smudge" already exists; label with it instead.');
    expect((await post(annotators[1].id, { name: " " })).status).toBe(400);

    const [task] = (await nextTasks(annotators[0], projectId, 1)).tasks;
    const { label } = await submitLabel(annotators[0], projectId, { taskId: task.id, kind: "label", classIndex: 10, idempotencyKey: "open-class-label-1" });
    expect(label.classIndex).toBe(10);
  });

  it("refuses a new class in a fixed-class project (409) and to non-members (403)", async () => {
    const { projectId, annotators } = await digitsProject();
    const outsider = await createTestUser("RESEARCHER");
    const post = async (user: { id: string; sessionVersion: number }) =>
      classesRoute.POST(await requestAs(user, `/api/projects/${projectId}/classes`, { method: "POST", json: { name: "Eleven" } }), routeContext({ projectId }));
    const fixed = await post(await userRow(annotators[0].id));
    expect(fixed.status).toBe(409);
    expect((await fixed.json()).error.message).toMatch(/fixed set of classes/);
    expect((await post(outsider)).status).toBe(403);
    expect(await db().referenceClass.count({ where: { projectId } })).toBe(10);
  });
});
