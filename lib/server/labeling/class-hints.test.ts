import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { readNpy } from "@/lib/data/npy";
import { db } from "../db";
import { AppError } from "../errors";
import { runOneJob } from "../jobs/worker-loop";
import { projectFile } from "../project-data/paths";
import { classExamples } from "./class-examples";
import { labelOverview } from "./label-overview";
import { DIGITS, digitsProject, fastWorkerDeps, labelAll } from "./labeling-test-fixture";
import { submitLabel } from "./labels";
import { nextTasks } from "./tasks";

// the project's first clustering by name: the hints' cluster comes from it
const firstClustering = async () => (await readNpy(path.join(DIGITS, "clusterings", "gmm_k10.npy"))).data as Int32Array;

describe("one class at a time (labelBy verify)", () => {
  beforeEach(async () => {
    await db().job.deleteMany({});
  });

  it("hands each task the latest round's pseudo-label and the item's cluster; a project that picks gets none", async () => {
    const { projectId, annotators, truth } = await digitsProject();
    const [picked] = (await nextTasks(annotators[0], projectId, 1)).tasks;
    expect(picked.hint).toBeNull();

    await db().project.update({ where: { id: projectId }, data: { labelBy: "verify" } });
    const clusters = await firstClustering();
    const before = (await nextTasks(annotators[0], projectId, 3)).tasks;
    expect(before.map((t) => t.hint)).toEqual(before.map((t) => ({ suggestedClass: null, cluster: clusters[t.item.index] })));

    await labelAll(annotators[0], projectId, truth, 20);
    expect(await runOneJob("test-worker", { deps: fastWorkerDeps })).toBe(true);
    const round = await db().round.findFirstOrThrow({ where: { projectId, status: "done" }, orderBy: { index: "desc" } });
    const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
    const results = (await readNpy(projectFile(project, round.resultsFile!))).data as Float32Array;
    const after = (await nextTasks(annotators[1], projectId, 4)).tasks;
    expect(after).toHaveLength(4);
    expect(after.map((t) => t.hint)).toEqual(after.map((t) => ({ suggestedClass: Math.round(results[t.item.index * 2]), cluster: clusters[t.item.index] })));
    expect(after.every((t) => t.hint!.suggestedClass! >= 0 && t.hint!.suggestedClass! < 10)).toBe(true);
  });

  it("sends the members' labels counted per cluster with the class examples, only where the project labels by verify", async () => {
    const { projectId, owner, annotators, truth } = await digitsProject();
    await labelAll(annotators[0], projectId, truth, 12);
    expect((await classExamples(owner, projectId, 2)).clusterCounts).toBeUndefined();

    await db().project.update({ where: { id: projectId }, data: { labelBy: "verify" } });
    const clusters = await firstClustering();
    const labeled = await db().label.findMany({ where: { projectId }, include: { task: true } });
    const expected = new Map<string, number>();
    for (const l of labeled) expected.set(`${clusters[l.task.itemIndex]}:${truth[l.task.itemIndex]}`, (expected.get(`${clusters[l.task.itemIndex]}:${truth[l.task.itemIndex]}`) ?? 0) + 1);
    const { clusterCounts, examples } = await classExamples(annotators[1], projectId, 2);
    expect(new Map(clusterCounts!.map(([cluster, c, n]) => [`${cluster}:${c}`, n]))).toEqual(expected);
    expect(clusterCounts!.reduce((sum, [, , n]) => sum + n, 0)).toBe(12);
    expect(examples).toHaveLength(10);
  });

  it("keeps how many answers each label took, averages them for the owner, and refuses a count on a pairwise answer", async () => {
    const { projectId, owner, annotators, truth } = await digitsProject();
    await db().project.update({ where: { id: projectId }, data: { labelBy: "verify" } });
    const answers = [1, 3, 1, 7];
    for (const [i, verifyAnswers] of answers.entries()) {
      const [task] = (await nextTasks(annotators[i % 2], projectId, 1)).tasks;
      const { label } = await submitLabel(annotators[i % 2], projectId, { taskId: task.id, kind: "label", classIndex: truth[task.item.index], verifyAnswers, idempotencyKey: `verify-${i}` });
      expect(label.verifyAnswers).toBe(verifyAnswers);
    }
    // a retry with the same key returns the stored label, count included
    const first = await db().label.findFirstOrThrow({ where: { projectId, idempotencyKey: "verify-0" } });
    const retried = await submitLabel(annotators[0], projectId, { taskId: first.taskId, kind: "label", classIndex: first.classIndex!, verifyAnswers: 1, idempotencyKey: "verify-0" });
    expect(retried).toMatchObject({ duplicate: true, label: { verifyAnswers: 1 } });

    const overview = await labelOverview(owner, projectId, { page: 0, pageSize: 5 });
    expect(overview.verification).toEqual({ verifiedLabels: 4, answersPerLabel: 3 });
    const byUser = Object.fromEntries(overview.annotators.map((a) => [a.userId, [a.verifiedLabels, a.answersPerLabel]]));
    expect(byUser).toEqual({ [annotators[0].id]: [2, 1], [annotators[1].id]: [2, 5] });

    const pairwise = await digitsProject({ mode: "pairwise" });
    const [pair] = (await nextTasks(pairwise.annotators[0], pairwise.projectId, 1)).tasks;
    const refused = submitLabel(pairwise.annotators[0], pairwise.projectId, { taskId: pair.id, kind: "label", answer: "same", verifyAnswers: 2, idempotencyKey: "verify-pair" });
    await expect(refused).rejects.toThrow(AppError);
    await expect(refused).rejects.toThrow("verifyAnswers counts the answers of a clusterwise label given one class at a time");
  });
});
