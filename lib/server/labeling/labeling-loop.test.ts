import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as labelsRoute from "@/app/api/projects/[projectId]/labels/route";
import { readNpy } from "@/lib/data/npy";
import { createKnnSurrogate } from "@/lib/cereal/fakes/knn-surrogate";
import { expectedCalibrationError } from "@/lib/cereal/method/calibration";
import { RESIDUAL_MIN_ACCURACY } from "@/lib/cereal/method/surrogate-health";
import type { SurrogateFactory } from "@/lib/cereal/method/surrogate";
import { clampMetric, METRIC_KEYS, type MetricKey } from "@/lib/metrics";
import { db } from "../db";
import { exportItems } from "../exports/exports";
import { DIGITS, digitsProject, fastWorkerDeps, labelAll } from "./labeling-test-fixture";
import { correctLabel, submitLabel, undoLastLabel } from "./labels";
import { projectFile } from "../project-data/paths";
import { readRoundProba } from "../project-data/round-files";
import { cancelRound, listRounds, retryRound } from "../rounds/round-history";
import { nextTasks } from "./tasks";
import { stageDrawsSettled } from "./stages";
import { requestAs, routeContext } from "../http/test-requests";
import { jobResult } from "../jobs/queue";
import { runOneJob } from "../jobs/worker-loop";
import { roundJob } from "../rounds/round-job";
import { ROUND_STEPS } from "../rounds/round-steps";
import { pairStageModels } from "../rounds/pair-stage-models";
import { pairAccuracy } from "@/lib/cereal/pairwise/pairwise-estimate";

// stages are drawn after the requests that need them: every test waits for the draws it started
afterEach(stageDrawsSettled);

describe("tasks and labels", () => {
  it("turns 10 concurrent identical POSTs into one label", async () => {
    const { projectId, annotators } = await digitsProject();
    const [task] = (await nextTasks(annotators[0], projectId, 1)).tasks;
    const user = await db().user.findUniqueOrThrow({ where: { id: annotators[0].id } });
    const body = { taskId: task.id, kind: "label", classIndex: 3, idempotencyKey: "same-key-123" };
    const responses = await Promise.all(
      Array.from({ length: 10 }, async () => labelsRoute.POST(await requestAs(user, "/x", { method: "POST", json: body }), routeContext({ projectId }))),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    const ids = new Set(await Promise.all(responses.map(async (r) => (await r.json()).label.id)));
    expect(ids.size).toBe(1);
    expect(await db().label.count({ where: { taskId: task.id } })).toBe(1);
    expect(await db().labelChange.count({ where: { label: { taskId: task.id } } })).toBe(1);
  });

  it("never gives one task to two annotators hammering the project, loses none, and labels to the budget without a round", async () => {
    // the seed stage of 30, then stages drawn ahead of need while round 0 waits for the worker
    const { projectId, annotators, truth } = await digitsProject({ seedSize: 30 });
    const [a, b] = await Promise.all(annotators.map((u) => labelAll(u, projectId, truth)));
    await stageDrawsSettled();
    const drawn = await db().task.findMany({ where: { projectId }, select: { id: true } });
    expect(drawn).toHaveLength(60);
    expect(a.length + b.length).toBe(60);
    expect(new Set([...a, ...b])).toEqual(new Set(drawn.map((t) => t.id)));
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect(await db().label.count({ where: { projectId, kind: "label" } })).toBe(60);
    // every stage is one draw from the rows not drawn before it: none drawn twice
    const items = await db().task.findMany({ where: { projectId }, select: { itemIndex: true } });
    expect(new Set(items.map((t) => t.itemIndex)).size).toBe(60);
  });

  it("returns an expired lease to the pool, and refuses the late label with 409", async () => {
    const { projectId, annotators } = await digitsProject({ seedSize: 1 });
    const [first] = (await nextTasks(annotators[0], projectId, 1)).tasks;
    const [other] = (await nextTasks(annotators[1], projectId, 1)).tasks;
    // the seed stage is taken: the other annotator's task comes from the next stage, drawn uniformly (no round yet)
    expect(other).toMatchObject({ stage: 1, drawnByRound: null });
    await db().lease.updateMany({ where: { taskId: first.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const again = (await nextTasks(annotators[1], projectId, 2)).tasks;
    expect(again.map((t) => t.id).sort()).toEqual([first.id, other.id].sort());
    await submitLabel(annotators[1], projectId, { taskId: first.id, kind: "label", classIndex: 1, idempotencyKey: "b-label-0001" });
    await expect(submitLabel(annotators[0], projectId, { taskId: first.id, kind: "label", classIndex: 2, idempotencyKey: "a-late-00001" })).rejects.toThrow(/not leased to you/);
  });

  it("validates values against the project's mode and classes", async () => {
    const { projectId, annotators } = await digitsProject();
    const [task] = (await nextTasks(annotators[0], projectId, 1)).tasks;
    await expect(submitLabel(annotators[0], projectId, { taskId: task.id, kind: "label", classIndex: 10, idempotencyKey: "bad-class-01" })).rejects.toThrow(/not a class of this project \(0\.\.9\)/);
    await expect(submitLabel(annotators[0], projectId, { taskId: task.id, kind: "label", answer: "same", idempotencyKey: "bad-class-02" })).rejects.toThrow(/needs classIndex/);
  });

  it("lets skip and unsure leave the task unlabeled and outside the budget", async () => {
    const { projectId, annotators } = await digitsProject({ seedSize: 2 });
    const tasks = (await nextTasks(annotators[0], projectId, 2)).tasks;
    await submitLabel(annotators[0], projectId, { taskId: tasks[0].id, kind: "skip", reason: "blurry", idempotencyKey: "skip-000001" });
    const result = await submitLabel(annotators[0], projectId, { taskId: tasks[1].id, kind: "unsure", idempotencyKey: "unsure-00001" });
    expect(result.progress).toEqual({ labels: 0, budget: 60 });
  });

  it("undoes the last label while no round used it, and reopens the task for the same annotator", async () => {
    const { projectId, annotators } = await digitsProject({ seedSize: 3 });
    const [task] = (await nextTasks(annotators[0], projectId, 1)).tasks;
    await submitLabel(annotators[0], projectId, { taskId: task.id, kind: "label", classIndex: 4, idempotencyKey: "undo-me-0001" });
    const undone = await undoLastLabel(annotators[0], projectId);
    expect(undone.taskId).toBe(task.id);
    expect((await nextTasks(annotators[0], projectId, 1)).tasks[0].id).toBe(task.id);
    expect((await nextTasks(annotators[1], projectId, 3)).tasks.map((t) => t.id)).not.toContain(task.id);
    const changes = await db().labelChange.findMany({ where: { label: { taskId: task.id } }, orderBy: { createdAt: "asc" } });
    expect(changes.map((c) => [c.action, c.oldValue, c.newValue])).toEqual([
      ["create", null, "4"],
      ["withdraw", "4", null],
    ]);
  });

  it("hands out no tasks while the project is paused", async () => {
    const { projectId, annotators } = await digitsProject();
    await db().project.update({ where: { id: projectId }, data: { paused: true } });
    expect(await nextTasks(annotators[0], projectId, 1)).toMatchObject({ tasks: [], state: "paused" });
  });
});

describe("rounds in the worker", () => {
  // runOneJob takes the oldest job: start each case with an empty queue
  beforeEach(async () => {
    await db().job.deleteMany({});
  });

  it("queues a round when the seed stage is settled, stores estimates, results and the ranking the next stages draw with", async () => {
    const { projectId, annotators, owner, truth } = await digitsProject();
    await labelAll(annotators[0], projectId, truth, 20);
    await stageDrawsSettled();
    const job = await db().job.findFirstOrThrow({ where: { projectId, kind: "round" } });
    expect(job).toMatchObject({ status: "queued", payload: { projectId, round: 0 } });

    expect(await runOneJob("test-worker", { deps: fastWorkerDeps })).toBe(true);
    expect(await db().job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ status: "done", error: null });
    // the job's result, read typed, times each step of the round
    const outcome = jobResult(roundJob, await db().job.findUniqueOrThrow({ where: { id: job.id } }))!;
    expect(outcome).toMatchObject({ round: 0, nLabels: 20 });
    for (const step of ROUND_STEPS) expect(outcome.steps![step]).toBeGreaterThanOrEqual(0);
    // CPU time of the worker process per step; the fit trains a surrogate, so it takes some
    for (const step of ROUND_STEPS) expect(outcome.cpu![step]).toBeGreaterThanOrEqual(0);
    expect(outcome.cpu!.fit).toBeGreaterThan(0);
    const round = await db().round.findUniqueOrThrow({ where: { projectId_index: { projectId, index: 0 } }, include: { estimates: true } });
    expect(round).toMatchObject({ status: "done", nLabels: 20, seed: 7 });
    expect(round.codeVersion).toMatch(/^0\.1\.0/);
    // the seed labels are frozen now: undo is refused (the owner can still correct, below)
    await expect(undoLastLabel(annotators[0], projectId)).rejects.toThrow(/already used by round 0/);
    const clusterings = await db().clustering.count({ where: { projectId } });
    expect(round.estimates).toHaveLength(clusterings * METRIC_KEYS.length);
    for (const e of round.estimates) {
      expect(Number.isFinite(e.value)).toBe(true);
      expect(e.lo!).toBeLessThanOrEqual(e.hi!);
    }

    const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
    const results = await readNpy(projectFile(project, round.resultsFile!));
    expect(results.shape).toEqual([1797, 2]);
    const labeledTasks = await db().task.findMany({ where: { projectId, batch: { index: 0 } } });
    for (const t of labeledTasks) expect(results.data[t.itemIndex * 2]).toBe(truth[t.itemIndex]);

    expect(round).toMatchObject({ scoresFile: "rounds/round-0-scores.npy", probaFile: "rounds/round-0-proba.npy", temperature: 1 });
    const proba = await readNpy(projectFile(project, round.probaFile!));
    expect(proba.shape).toEqual([1797, 10]);
    for (const t of labeledTasks) expect(Number.isNaN(proba.data[t.itemIndex * 10])).toBe(true);

    // stage 1 was drawn uniformly while the seed stage was labeled; the next one uses round 0's ranking
    expect(await db().batch.findUniqueOrThrow({ where: { projectId_index: { projectId, index: 1 } } })).toMatchObject({ size: 10, drawnByRoundIndex: null, design: "uniform" });
    // one annotator is kept 5 free slots ahead: the sixth answer of stage 1 calls for the next stage
    await labelAll(annotators[0], projectId, truth, 6);
    await stageDrawsSettled();
    const next = await db().batch.findUniqueOrThrow({ where: { projectId_index: { projectId, index: 2 } }, include: { tasks: true } });
    expect(next).toMatchObject({ size: 10, drawnByRoundIndex: 0, design: "top-score" });
    expect(next.tasks).toHaveLength(10);
    const before = new Set((await db().task.findMany({ where: { projectId, batch: { index: { lt: 2 } } } })).map((t) => t.itemIndex));
    for (const t of next.tasks) {
      expect(t.design).toBe("top-score");
      expect(before.has(t.itemIndex)).toBe(false);
    }
    const label = await db().label.findFirstOrThrow({ where: { projectId, usedByRound: 0 } });
    const corrected = await correctLabel(owner, projectId, label.id, { classIndex: (label.classIndex! + 1) % 10 });
    expect(corrected.label.classIndex).toBe((label.classIndex! + 1) % 10);
  });

  it("hands out tasks of later stages while a round is queued; the round uses the settled stages only", async () => {
    const { projectId, annotators, truth } = await digitsProject();
    await labelAll(annotators[0], projectId, truth, 20);
    const meanwhile = (await nextTasks(annotators[1], projectId, 3)).tasks;
    expect(meanwhile).toHaveLength(3);
    expect(meanwhile.every((t) => t.stage === 1)).toBe(true);
    // one of them answered before the round runs: stage 1 is not settled, so the round leaves it out
    await submitLabel(annotators[1], projectId, { taskId: meanwhile[0].id, kind: "label", classIndex: truth[meanwhile[0].item.index], idempotencyKey: "meanwhile-01" });
    await runOneJob("test-worker", { deps: fastWorkerDeps });
    expect(await db().round.findFirstOrThrow({ where: { projectId, index: 0 } })).toMatchObject({ status: "done", nLabels: 20 });
    expect(await db().label.findFirstOrThrow({ where: { taskId: meanwhile[0].id } })).toMatchObject({ usedByRound: null });
    // and that label can still be undone
    await expect(undoLastLabel(annotators[1], projectId)).resolves.toMatchObject({ taskId: meanwhile[0].id });
  });

  it("survives a worker killed mid-round: on restart there is exactly one round and its ranking", async () => {
    const { projectId, annotators, truth } = await digitsProject({ fixmatch: true, fixmatchSteps: 400 });
    await labelAll(annotators[0], projectId, truth, 20);
    const { spawn } = await import("node:child_process");
    const worker = spawn(process.execPath, ["--import", "tsx", "bin/worker.ts"], { env: process.env, stdio: "ignore" });
    // wait until the real worker has started the round (TF.js training), then SIGKILL it
    for (let i = 0; i < 600 && !(await db().round.findFirst({ where: { projectId, status: "running" } })); i++) await new Promise((r) => setTimeout(r, 100));
    worker.kill("SIGKILL");
    await new Promise((r) => worker.once("exit", r));
    expect(await db().round.findFirst({ where: { projectId, status: "running" } })).not.toBeNull();
    // its lease runs out; another worker takes the job over
    await db().job.updateMany({ where: { projectId }, data: { leaseUntil: new Date(Date.now() - 1) } });
    await runOneJob("restarted", { deps: fastWorkerDeps });
    expect(await db().round.count({ where: { projectId } })).toBe(1);
    expect(await db().round.findFirstOrThrow({ where: { projectId } })).toMatchObject({ status: "done", index: 0 });
    const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
    for (const file of ["round-0.npy", "round-0-scores.npy", "round-0-proba.npy", "round-0-evidence.json"]) expect(fs.existsSync(projectFile(project, `rounds/${file}`))).toBe(true);
    expect(fs.readdirSync(projectFile(project, "rounds")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  }, 120_000);

  it("runs a pairwise project's round with the L2C engine: estimates, per-item results, anchor + uniform pairs; unsure answers are skips", async () => {
    // the anchor pair design (project settings) with 30% of the round's stage uniform pairs
    const { projectId, owner, annotators, truth } = await digitsProject({ mode: "pairwise", seedSize: 30, batchSize: 10, pairDesign: "anchor", pairUniformShare: 0.3 });
    const [first] = (await nextTasks(annotators[0], projectId, 1)).tasks;
    await submitLabel(annotators[0], projectId, { taskId: first.id, kind: "unsure", idempotencyKey: "unsure-1" });
    // the rest of the seed stage (a uniform pair stage is drawn ahead meanwhile)
    const done = await labelAll(annotators[0], projectId, truth, 29);
    expect(done).toHaveLength(29);
    await stageDrawsSettled();
    expect(await db().batch.findUniqueOrThrow({ where: { projectId_index: { projectId, index: 1 } } })).toMatchObject({ drawnByRoundIndex: null, design: "uniform", size: 10 });
    const pairs = await db().task.findMany({ where: { projectId } });
    expect(pairs.every((t) => t.itemIndexB !== null && t.itemIndex < t.itemIndexB)).toBe(true);
    await runOneJob("w", { deps: fastWorkerDeps });

    const round = await db().round.findFirstOrThrow({ where: { projectId, index: 0 }, include: { estimates: true } });
    expect(round).toMatchObject({ status: "done", nLabels: 29, backend: "fake-components", resultsFile: "rounds/round-0.npy" });
    expect(round.config).toMatchObject({ mode: "pairwise", pairDesign: "anchor", pairUniformShare: 0.3, uniformShare: 0.3 });
    // no model drew the answers of round 0 (seed and uniform stages): nothing to judge it on
    expect(round.surrogateAccuracy).toBeNull();
    const clusterings = await db().clustering.count({ where: { projectId } });
    expect(round.estimates).toHaveLength(clusterings * METRIC_KEYS.length);
    for (const e of round.estimates) {
      // in the metric's range (ARI and AMI go below 0 for a table worse than chance)
      expect(clampMetric(e.metric as MetricKey, e.value)).toBe(e.value);
      expect(e.lo! <= e.value && e.value <= e.hi!).toBe(true);
    }
    const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
    const results = await readNpy(projectFile(project, round.resultsFile!));
    expect(results.shape).toEqual([project.n, 2]);
    // every item has a cluster id in 0..K'-1 (K' = 2 x 10 classes) and its probability
    const data = results.data as Float32Array;
    for (let i = 0; i < project.n; i++) {
      expect(data[2 * i]).toBeGreaterThanOrEqual(0);
      expect(data[2 * i]).toBeLessThan(20);
      expect(data[2 * i + 1]).toBeGreaterThan(0);
    }
    // the round draws its own stage (its design needs its model's p(.|x)), after the stage drawn meanwhile
    const next = await db().task.findMany({ where: { projectId, batch: { drawnByRoundIndex: 0 } }, include: { batch: true }, orderBy: { drawOrder: "asc" } });
    expect(next).toHaveLength(10);
    expect(next[0].batch).toMatchObject({ index: 2, design: "uniform" });
    expect(next.every((t) => t.itemIndexB !== null && t.itemIndex < t.itemIndexB && t.design === "uniform")).toBe(true);
    // 7 anchor pairs carry their predicted same-probability as score, then 3 uniform pairs carry none
    expect(next.map((t) => t.score !== null)).toEqual([true, true, true, true, true, true, true, false, false, false]);
    expect(next.map((t) => t.drawOrder)).toEqual(Array.from({ length: 10 }, (_, i) => 40 + i));
    // no pair is drawn twice, the unsure one included
    const keys = new Set((await db().task.findMany({ where: { projectId } })).map((t) => `${t.itemIndex}:${t.itemIndexB}`));
    expect(keys.size).toBe(50);
    // the items export names the surrogate's ids as clusters, never as reference classes
    const items = (await (await exportItems(owner, projectId, "jsonl")).text()).trim().split("\n").map((line) => JSON.parse(line));
    expect(items).toHaveLength(project.n);
    expect(items.every((r) => r.label === null && /^cluster \d+$/.test(r.pseudo_label))).toBe(true);

    // round 0 keeps its p(.|x); once stage 2 is answered, round 1 corrects with its 3 uniform pairs, the 7 anchor ones count as known
    expect(round.probaFile).toBe("rounds/round-0-proba.npy");
    await labelAll(annotators[0], projectId, truth, 20);
    await stageDrawsSettled();
    await runOneJob("w", { deps: fastWorkerDeps });
    const round1 = await db().round.findFirstOrThrow({ where: { projectId, index: 1 }, include: { estimates: true } });
    expect(round1).toMatchObject({ status: "done", nLabels: 49 });
    const stages = await pairStageModels(project, 2, new Map([[0, 29], [1, 10], [2, 3]]));
    expect([...stages.models.keys()]).toEqual([2]);
    expect(stages.models.get(2)![0]).toEqual((await readNpy(projectFile(project, round.probaFile!))).data);
    expect(stages.response.get(2)).toBe(1);
    const corrected = round1.estimates.filter((e) => ["nmi", "ami", "vMeasure", "ari", "fmi"].includes(e.metric));
    for (const e of corrected) expect(e.lo! <= e.value && e.value <= e.hi! && e.lo! < e.hi!).toBe(true);
    // 3 uniform pairs cannot show that round 0's model predicts answers it never saw: NMI, AMI and V
    // get their whole range (pairCountIntervals); ARI's and FMI's are the pair counts' own
    for (const e of round1.estimates.filter((x) => ["nmi", "vMeasure"].includes(x.metric))) expect([e.lo, e.hi]).toEqual([0, 1]);
    for (const e of round1.estimates.filter((x) => x.metric === "ami")) expect([e.lo, e.hi]).toEqual([-1, 1]);
    // the round says so, as round 0 did (no model had drawn a stage then): the dashboard explains the whole range
    expect([round.surrogateWeak, round1.surrogateWeak]).toEqual([true, true]);
    expect(round1.estimates.filter((x) => x.metric === "fmi").some((e) => e.hi! - e.lo! < 1)).toBe(true);
  }, 120_000);

  it("random pairs: a round keeps its p(.|x), and the next round corrects the stage it drew with it (pair-count intervals)", async () => {
    const { projectId, annotators, truth } = await digitsProject({ mode: "pairwise", seedSize: 30, batchSize: 10, pairDesign: "random" });
    const [first] = (await nextTasks(annotators[0], projectId, 1)).tasks;
    await submitLabel(annotators[0], projectId, { taskId: first.id, kind: "unsure", idempotencyKey: "unsure-random" });
    await labelAll(annotators[0], projectId, truth, 29);
    await stageDrawsSettled();
    await runOneJob("w", { deps: fastWorkerDeps });
    const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
    const round0 = await db().round.findFirstOrThrow({ where: { projectId, index: 0 } });
    expect(round0).toMatchObject({ status: "done", probaFile: "rounds/round-0-proba.npy" });
    const proba0 = await readNpy(projectFile(project, round0.probaFile!));
    expect(proba0.shape).toEqual([project.n, 20]);
    // stage 1 was drawn ahead before round 0 finished, stage 2 by round 0 itself: 20 more answers settle both
    await labelAll(annotators[0], projectId, truth, 20);
    await stageDrawsSettled();
    await runOneJob("w", { deps: fastWorkerDeps });
    const round1 = await db().round.findFirstOrThrow({ where: { projectId, index: 1 }, include: { estimates: true } });
    expect(round1).toMatchObject({ status: "done", nLabels: 49 });
    const stages = await pairStageModels(project, 2, new Map([[0, 29], [1, 10], [2, 10]]));
    expect([...stages.models.keys()]).toEqual([2]);
    expect(stages.models.get(2)![0]).toEqual(proba0.data);
    // round 1's accuracy is round 0's model on stage 2's answers, which it drew and never saw
    const stage2 = await db().label.findMany({ where: { projectId, kind: "label", withdrawn: false, task: { batch: { index: 2 } } }, include: { task: true } });
    expect(stage2).toHaveLength(10);
    const pairs = { a: Int32Array.from(stage2, (l) => l.task.itemIndex), b: Int32Array.from(stage2, (l) => l.task.itemIndexB!), same: Uint8Array.from(stage2, (l) => (l.answer === "same" ? 1 : 0)) };
    expect(round1.surrogateAccuracy).toBeCloseTo(pairAccuracy(proba0.data as Float32Array, 20, pairs)!, 12);
    // the unsure answer leaves 29 of the seed stage's 30 pairs
    expect(stages.response.get(0)).toBeCloseTo(29 / 30, 12);
    // the pair-count intervals hold the argmax estimate they are built around (ACC and AP keep the bootstrap's percentiles)
    const corrected = round1.estimates.filter((e) => ["nmi", "ami", "vMeasure", "ari", "fmi"].includes(e.metric));
    expect(corrected).toHaveLength(5 * (await db().clustering.count({ where: { projectId } })));
    for (const e of corrected) expect(e.lo! <= e.value && e.value <= e.hi! && e.lo! < e.hi!).toBe(true);
  }, 120_000);
});

describe("round control", () => {
  beforeEach(async () => {
    await db().job.deleteMany({});
  });

  it("keeps a failed round with its error, retries it, and cancels a queued one", async () => {
    const { projectId, annotators, owner, truth } = await digitsProject();
    await labelAll(annotators[0], projectId, truth, 20);
    const failing = { createSurrogate: async () => Promise.reject(new Error("embeddings.npy is unreadable")) };
    await db().job.updateMany({ where: { projectId }, data: { maxAttempts: 1 } });
    await runOneJob("w", { deps: failing });
    const history = await listRounds(owner, projectId);
    expect(history.queued).toEqual([]);
    const job = await db().job.findFirstOrThrow({ where: { projectId } });
    expect(job).toMatchObject({ status: "failed", error: "embeddings.npy is unreadable" });
    // the round got as far as freezing its labels: its row shows the error (estimates hidden from annotators)
    await expect(listRounds(annotators[0], projectId)).resolves.toMatchObject({ rounds: [{ index: 0, status: "failed", error: "embeddings.npy is unreadable", estimates: null }] });
    await expect(retryRound(annotators[0], projectId, 0)).rejects.toThrow(/owner/);

    expect(await retryRound(owner, projectId, 0)).toEqual({ index: 0, status: "queued" });
    expect(await cancelRound(owner, projectId, 0)).toEqual({ index: 0, status: "cancelled" });
    expect(await runOneJob("w", { deps: fastWorkerDeps })).toBe(false);
    await retryRound(owner, projectId, 0);
    await runOneJob("w", { deps: fastWorkerDeps });
    const after = await listRounds(owner, projectId);
    expect(after.rounds).toHaveLength(1);
    expect(after.rounds[0]).toMatchObject({ index: 0, status: "done", nLabels: 20 });
    expect(after.rounds[0].estimates!.length).toBeGreaterThan(0);
    // annotators see no estimates unless the owner allows it
    expect((await listRounds(annotators[0], projectId)).rounds[0].estimates).toBeNull();
    await db().project.update({ where: { id: projectId }, data: { annotatorsSeeEstimates: true } });
    expect((await listRounds(annotators[0], projectId)).rounds[0].estimates!.length).toBe(after.rounds[0].estimates!.length);
  });
});

describe("cancelling a running round", () => {
  it("stops training at the next step, not after the fit", async () => {
    const { projectId, annotators, owner, truth } = await digitsProject();
    await labelAll(annotators[0], projectId, truth, 20);
    let reached = 0;
    const total = 400;
    const slow: SurrogateFactory = async (embeddings, numClasses) => {
      const knn = createKnnSurrogate(embeddings, numClasses);
      return {
        predictProba: (rows) => knn.predictProba(rows),
        predictProbaMc: (rows, passes, seed) => knn.predictProbaMc(rows, passes, seed),
        dispose: () => knn.dispose(),
        fit: async (labeled, unlabeled, options, onProgress) => {
          for (let step = 1; step <= total; step++) {
            onProgress?.({ step, total });
            reached = step;
            if (step === 5) await cancelRound(owner, projectId, 0);
            // a step takes a few ms, as real training does: the progress write that notices the
            // cancel is a round trip to PostgreSQL, which outlasts many bare event-loop turns
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
          return knn.fit(labeled, unlabeled, options);
        },
      };
    };
    await runOneJob("w", { deps: { createSurrogate: slow } });
    // the progress stored at step 16 finds the job cancelled; the step after it ends the fit
    expect(reached).toBeGreaterThanOrEqual(16);
    expect(reached).toBeLessThan(total / 4);
    expect(await db().job.findFirstOrThrow({ where: { projectId } })).toMatchObject({ status: "cancelled" });
    expect((await listRounds(owner, projectId)).rounds[0]).toMatchObject({ index: 0, status: "cancelled" });
  });
});

describe("the recommended configuration in the app", () => {
  beforeEach(async () => {
    await db().job.deleteMany({});
  });

  it("draws stages by the project's design: proportional Hard NMI records each item's inclusion probability and the evidence over its pool", async () => {
    const { projectId, annotators, truth } = await digitsProject({ acquisition: "hardnmi", design: "proportional", estimator: "guarded" });
    await labelAll(annotators[0], projectId, truth, 20);
    await stageDrawsSettled();
    await runOneJob("w", { deps: fastWorkerDeps });
    const round = await db().round.findFirstOrThrow({ where: { projectId, index: 0 } });
    expect(round.config).toMatchObject({ design: "proportional", acquisition: "hardnmi" });
    await labelAll(annotators[0], projectId, truth, 6);
    await stageDrawsSettled();
    const stage = await db().batch.findFirstOrThrow({ where: { projectId, drawnByRoundIndex: 0 }, include: { tasks: true } });
    // drawn from every row not drawn before it: the seed stage and stage 1 (uniform, before round 0) are out
    expect(stage).toMatchObject({ index: 2, design: "proportional", eps: 0.1, poolSize: 1797 - 30, size: 10 });
    expect(stage.tasks.every((t) => t.design === "proportional" && t.q! > 0 && t.q! <= 1)).toBe(true);
    // a probability sample: q varies with the score
    expect(new Set(stage.tasks.map((t) => t.q!.toFixed(6))).size).toBeGreaterThan(1);
    // the evidence of round 0's model over that pool: a pseudo table per clustering summing to the pool, and each drawn row's prediction
    const evidence = stage.evidence as { batches: { round: number; poolSize: number; hardPseudo: Record<string, number[]> }[]; predictions: { row: number }[] };
    expect(evidence.batches).toHaveLength(1);
    expect(evidence.batches[0]).toMatchObject({ round: 2, poolSize: 1797 - 30 });
    for (const table of Object.values(evidence.batches[0].hardPseudo)) expect(table.reduce((a, b) => a + b, 0)).toBeCloseTo(1797 - 30, 6);
    expect(evidence.predictions.map((p) => p.row).sort()).toEqual(stage.tasks.map((t) => t.itemIndex).sort());
  });

  it("draws by the residual score from the round whose earlier models read calibrated (residualWhenCalibrated), and records which it drew by", async () => {
    const { projectId, owner, annotators, truth } = await digitsProject({ acquisition: "hardnmi", design: "proportional", estimator: "guarded", seedSize: 300, batchSize: 20, budget: 400, residualWhenCalibrated: 1 });
    for (let round = 0; round < 3; round++) {
      await labelAll(annotators[0], projectId, truth, round === 0 ? 300 : 20);
      await stageDrawsSettled();
      await runOneJob("w", { deps: fastWorkerDeps });
    }
    const rounds = await db().round.findMany({ where: { projectId }, orderBy: { index: "asc" } });
    // round 0 has no out-of-sample reading, round 1 none either (its new labels were drawn before round 0's model existed);
    // round 2 reads round 0's model on the stage it drew, at least RESIDUAL_MIN_ACCURACY right, and any gap within 1 counts as calibrated
    expect(rounds.map((r) => [r.index, r.status, r.acquisition])).toEqual([
      [0, "done", "hardnmi"],
      [1, "done", "hardnmi"],
      [2, "done", "residual"],
    ]);
    expect(rounds[1].surrogateAccuracy).toBeNull();
    expect(rounds[2].surrogateAccuracy).toBeGreaterThanOrEqual(RESIDUAL_MIN_ACCURACY);
    // the ranking later stages draw with is the residual score, sqrt(1 - sum_y pi(y|x)^2), of round 2's pi; round 1's is not
    const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
    const residualGap = async (round: (typeof rounds)[number]) => {
      const scores = (await readNpy(projectFile(project, round.scoresFile!))).data as Float32Array;
      const { proba } = (await readRoundProba(project, round.probaFile!))!;
      let worst = 0;
      let ranked = 0;
      for (let row = 0; row < scores.length; row++) {
        if (!Number.isFinite(scores[row])) continue;
        let sq = 0;
        for (let y = 0; y < 10; y++) sq += proba[row * 10 + y] ** 2;
        worst = Math.max(worst, Math.abs(scores[row] - Math.sqrt(Math.max(0, 1 - sq))));
        ranked++;
      }
      return { worst, ranked };
    };
    const two = await residualGap(rounds[2]);
    expect(two.ranked).toBe(1797 - 360);
    expect(two.worst).toBeLessThan(1e-5);
    expect((await residualGap(rounds[1])).worst).toBeGreaterThan(0.01);
    // the dashboard's rounds list says which acquisition each round scored with
    expect((await listRounds(owner, projectId)).rounds.map((r) => r.acquisition)).toEqual(["hardnmi", "hardnmi", "residual"]);
  });

  it("keeps each stage's evidence, so round 1 measures round 0's model on the stage it drew", async () => {
    const { projectId, annotators, truth } = await digitsProject({ acquisition: "random", estimator: "guarded" });
    await labelAll(annotators[0], projectId, truth, 20);
    await stageDrawsSettled();
    await runOneJob("w", { deps: fastWorkerDeps });
    // stage 1 (drawn before round 0, uniformly) and stage 2 (drawn with round 0's ranking) are labeled; stage 3 is drawn ahead and left open
    await labelAll(annotators[0], projectId, truth, 20);
    await stageDrawsSettled();
    await runOneJob("w", { deps: fastWorkerDeps });
    const rounds = await db().round.findMany({ where: { projectId }, orderBy: { index: "asc" }, include: { _count: { select: { estimates: true } } } });
    expect(rounds.map((r) => [r.index, r.status, r.nLabels])).toEqual([
      [0, "done", 20],
      [1, "done", 40],
    ]);
    expect(rounds[1]._count.estimates).toBeGreaterThan(0);
    const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
    for (const r of [0, 1]) expect(fs.existsSync(projectFile(project, `rounds/round-${r}-evidence.json`))).toBe(true);
    const stages = await db().batch.findMany({ where: { projectId }, orderBy: { index: "asc" } });
    expect(stages.map((b) => [b.index, b.drawnByRoundIndex, b.evidence !== null])).toEqual([
      [0, null, false],
      [1, null, false],
      [2, 0, true],
      [3, 0, true],
    ]);

    // the same model as round 0's (k-NN on the seed labels), scored on stage 2 independently
    const seed = await db().task.findMany({ where: { projectId, batch: { index: 0 } } });
    const batch1 = Int32Array.from(await db().task.findMany({ where: { projectId, batch: { index: 2 } } }), (t) => t.itemIndex);
    const x = (await readNpy(path.join(DIGITS, "embeddings.npy"))).data as Float32Array;
    const model = createKnnSurrogate({ data: x, n: 1797, d: 64 }, 10);
    const rows = Int32Array.from(seed, (t) => t.itemIndex);
    await model.fit({ rows, labels: Int32Array.from(rows, (r) => truth[r]) }, new Int32Array(0), { seed: 0, fixmatch: false });
    const p = await model.predictProba(batch1);
    let right = 0;
    batch1.forEach((row, i) => {
      let best = 0;
      for (let y = 1; y < 10; y++) if (p[i * 10 + y] > p[i * 10 + best]) best = y;
      if (best === truth[row]) right++;
    });
    expect(rounds[0].surrogateAccuracy).toBeNull();
    expect(rounds[1].surrogateAccuracy).toBeCloseTo(right / batch1.length, 9);
    expect(rounds[1].surrogateWeak).toBe(rounds[1].surrogateAccuracy! < 0.6);
    // and its calibration error on that batch
    expect(rounds[0].surrogateEce).toBeNull();
    expect(rounds[1].surrogateEce).toBeCloseTo(expectedCalibrationError(p, Int32Array.from(batch1, (r) => truth[r]), 10), 9);
  });
});
