import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { db } from "../db";
import { createTestUser } from "../http/test-requests";
import { asSession, digitsProject } from "./labeling-test-fixture";

const run = promisify(execFile);

// Two processes, as two web servers behind one load balancer, with 10 annotators each labeling
// one project at once until its budget: on PostgreSQL (npm run test:pg) nothing serialises them
// but lockProject.
describe("20 annotators in two processes on one project", () => {
  it("get no conflict from a race, and every task ends with exactly overlap labels from different annotators", async () => {
    const { projectId } = await digitsProject({ seedSize: 40, batchSize: 10, overlap: 2, budget: 100 });
    const annotators = [];
    for (let i = 0; i < 20; i++) annotators.push(asSession(await createTestUser("ANNOTATOR")));
    await db().projectMember.createMany({ data: annotators.map((a) => ({ projectId, userId: a.id, role: "ANNOTATOR" as const })) });

    const processes = [annotators.slice(0, 10), annotators.slice(10)].map((group) =>
      run(process.execPath, ["--import", "tsx", "lib/server/labeling/annotator-process.ts", JSON.stringify({ projectId, annotators: group })], { env: process.env, maxBuffer: 1 << 24 }),
    );
    const results = (await Promise.all(processes)).map(({ stdout }) => JSON.parse(stdout.trim().split("\n").at(-1)!) as { labeled: Record<string, string[]>; errors: string[] });

    expect(results.flatMap((r) => r.errors)).toEqual([]);
    const claimed = results.flatMap((r) => Object.entries(r.labeled).flatMap(([userId, tasks]) => tasks.map((taskId) => `${taskId}/${userId}`)));
    expect(claimed).toHaveLength(100); // the whole budget, none lost
    expect(new Set(claimed).size).toBe(100); // no annotator answered a task twice
    const stored = (await db().label.findMany({ where: { projectId }, select: { taskId: true, userId: true } })).map((l) => `${l.taskId}/${l.userId}`);
    expect(stored.sort()).toEqual(claimed.sort()); // every answer stored as claimed

    const tasks = await db().task.findMany({ where: { projectId }, include: { labels: true }, orderBy: { drawOrder: "asc" } });
    expect(tasks).toHaveLength(50);
    for (const task of tasks) expect([task.done, new Set(task.labels.map((l) => l.userId)).size]).toEqual([true, 2]);
    expect(tasks.map((t) => t.drawOrder)).toEqual(tasks.map((_, i) => i)); // draw orders handed out once each, no gap
    expect(new Set(tasks.map((t) => t.itemIndex)).size).toBe(50); // no item drawn twice
    const stages = await db().batch.findMany({ where: { projectId }, orderBy: { index: "asc" }, select: { index: true } });
    expect(stages.map((s) => s.index)).toEqual(stages.map((_, i) => i));
    expect(await db().lease.count({ where: { task: { projectId } } })).toBe(0);
  });
});
