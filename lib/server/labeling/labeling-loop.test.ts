import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import * as labelsRoute from "@/app/api/projects/[projectId]/labels/route";
import { readNpy } from "@/lib/data/npy";
import { createKnnSurrogate } from "@/lib/cereal/fakes/knn-surrogate";
import { expectedCalibrationError } from "@/lib/cereal/method/calibration";
import type { SurrogateFactory } from "@/lib/cereal/method/surrogate";
import { METRIC_KEYS } from "@/lib/metrics";
import { db, transaction } from "../db";
import { fillNextBatch } from "../rounds/round-store";
import { exportItems } from "../exports/exports";
import { DIGITS, digitsProject, fastWorkerDeps, labelAll } from "./labeling-test-fixture";
import { correctLabel, submitLabel, undoLastLabel } from "./labels";
import { projectFile } from "../project-data/paths";
import { cancelRound, listRounds, retryRound } from "../rounds/round-history";
import { nextTasks } from "./tasks";
import { requestAs, routeContext } from "../http/test-requests";
import { jobResult } from "../jobs/queue";
import { runOneJob } from "../jobs/worker-loop";
import { roundJob } from "../rounds/round-job";
import { ROUND_STEPS } from "../rounds/round-steps";

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

  it("never gives one task to two annotators hammering the project, and loses none", async () => {
    // seed batch of 30, then 10 overflow tasks of batch 1 while round 0 waits for the worker
    const { projectId, annotators, truth } = await digitsProject({ seedSize: 30 });
    const [a, b] = await Promise.all(annotators.map((u) => labelAll(u, projectId, truth)));
    const drawn = await db().task.findMany({ where: { projectId }, select: { id: true } });
    expect(drawn).toHaveLength(40);
    expect(a.length + b.length).toBe(40);
    expect(new Set([...a, ...b])).toEqual(new Set(drawn.map((t) => t.id)));
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect(await db().label.count({ where: { projectId, kind: "label" } })).toBe(40);
  });

  it("returns an expired lease to the pool, and refuses the late label with 409", async () => {
    const { projectId, annotators } = await digitsProject({ seedSize: 1 });
    const [first] = (await nextTasks(annotators[0], projectId, 1)).tasks;
    const [other] = (await nextTasks(annotators[1], projectId, 1)).tasks;
    expect(other.overflow).toBe(true);
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

  it("queues a round when the seed batch is done, stores estimates, results and the next batch", async () => {
    const { projectId, annotators, owner, truth } = await digitsProject();
    await labelAll(annotators[0], projectId, truth, 20);
    const job = await db().job.findFirstOrThrow({ where: { projectId, kind: "round" } });
    expect(job).toMatchObject({ status: "queued", payload: { projectId, round: 0 } });

    expect(await runOneJob("test-worker", { deps: fastWorkerDeps })).toBe(true);
    expect(await db().job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ status: "done", error: null });
    // the job's result, read typed, times each step of the round
    const outcome = jobResult(roundJob, await db().job.findUniqueOrThrow({ where: { id: job.id } }))!;
    expect(outcome).toMatchObject({ round: 0, nLabels: 20 });
    for (const step of ROUND_STEPS) expect(outcome.steps![step]).toBeGreaterThanOrEqual(0);
    const round = await db().round.findUniqueOrThrow({ where: { projectId_index: { projectId, index: 0 } }, include: { estimates: true } });
    expect(round).toMatchObject({ status: "done", nLabels: 20, seed: 7 });
    expect(round.codeVersion).toMatch(/^0\.1\.0/);
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

    const next = await db().batch.findUniqueOrThrow({ where: { projectId_index: { projectId, index: 1 } }, include: { tasks: true } });
    expect(next).toMatchObject({ size: 10, drawnByRoundIndex: 0 });
    expect(next.tasks).toHaveLength(10);
    for (const t of next.tasks) {
      expect(t.design).toBe("top-score");
      expect(labeledTasks.map((l) => l.itemIndex)).not.toContain(t.itemIndex);
    }
    // the seed labels are frozen now: undo is refused, the owner can still correct
    await expect(undoLastLabel(annotators[0], projectId)).rejects.toThrow(/already used by round 0/);
    const label = await db().label.findFirstOrThrow({ where: { projectId } });
    const corrected = await correctLabel(owner, projectId, label.id, { classIndex: (label.classIndex! + 1) % 10 });
    expect(corrected.label.classIndex).toBe((label.classIndex! + 1) % 10);
  });

  it("hands out overflow tasks while a round is queued; the round then acquires n minus the overflow", async () => {
    const { projectId, annotators, truth } = await digitsProject();
    await labelAll(annotators[0], projectId, truth, 20);
    const overflow = (await nextTasks(annotators[1], projectId, 3)).tasks;
    expect(overflow).toHaveLength(3);
    expect(overflow.every((t) => t.overflow && t.batchIndex === 1)).toBe(true);
    await runOneJob("test-worker", { deps: fastWorkerDeps });
    const batch = await db().batch.findUniqueOrThrow({ where: { projectId_index: { projectId, index: 1 } }, include: { tasks: true } });
    expect(batch.size).toBe(10);
    expect(batch.tasks).toHaveLength(10);
    expect(batch.tasks.filter((t) => t.overflow)).toHaveLength(3);
    expect(new Set(batch.tasks.map((t) => t.itemIndex)).size).toBe(10);
  });

  it("survives a worker killed mid-round: on restart there is exactly one round and one next batch", async () => {
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
    expect(await db().batch.count({ where: { projectId, index: 1 } })).toBe(1);
    expect(await db().task.count({ where: { projectId, batch: { index: 1 } } })).toBe(10);
    expect(fs.existsSync(projectFile(await db().project.findUniqueOrThrow({ where: { id: projectId } }), "rounds/round-0.npy.tmp"))).toBe(false);
  }, 120_000);

  it("runs a pairwise project's round with the L2C engine: estimates, per-item results, anchor + uniform pairs; unsure answers are skips", async () => {
    // CrossEntropy names the anchor design; half of the next batch is uniform pairs
    const { projectId, owner, annotators, truth } = await digitsProject({ mode: "pairwise", seedSize: 30, batchSize: 10, acquisition: "crossentropy" });
    const [first] = (await nextTasks(annotators[0], projectId, 1)).tasks;
    await submitLabel(annotators[0], projectId, { taskId: first.id, kind: "unsure", idempotencyKey: "unsure-1" });
    // the rest of the seed batch, and no overflow pairs
    const done = await labelAll(annotators[0], projectId, truth, 29);
    expect(done).toHaveLength(29);
    const pairs = await db().task.findMany({ where: { projectId } });
    expect(pairs.every((t) => t.itemIndexB !== null && t.itemIndex < t.itemIndexB)).toBe(true);
    await runOneJob("w", { deps: fastWorkerDeps });

    const round = await db().round.findFirstOrThrow({ where: { projectId, index: 0 }, include: { estimates: true } });
    expect(round).toMatchObject({ status: "done", nLabels: 29, backend: "fake-components", resultsFile: "rounds/round-0.npy" });
    expect(round.config).toMatchObject({ mode: "pairwise", pairDesign: "anchor", uniformShare: 0.5 });
    // 29 answers hold out floor(2.9) = 2 pairs to measure the pairwise accuracy
    expect(round.surrogateAccuracy).not.toBeNull();
    const clusterings = await db().clustering.count({ where: { projectId } });
    expect(round.estimates).toHaveLength(clusterings * METRIC_KEYS.length);
    for (const e of round.estimates) {
      expect(e.value).toBeGreaterThanOrEqual(0);
      expect(e.value).toBeLessThanOrEqual(1);
      expect(e.lo! <= e.hi!).toBe(true);
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
    const next = await db().task.findMany({ where: { projectId, batch: { index: 1 } }, orderBy: { drawOrder: "asc" } });
    expect(next).toHaveLength(10);
    expect(next.every((t) => t.itemIndexB !== null && t.itemIndex < t.itemIndexB && t.design === "uniform")).toBe(true);
    // anchor pairs carry their predicted same-probability as score, then 5 uniform pairs carry none
    expect(next.map((t) => t.score !== null)).toEqual([true, true, true, true, true, false, false, false, false, false]);
    expect(next.map((t) => t.drawOrder)).toEqual(Array.from({ length: 10 }, (_, i) => 30 + i));
    // no pair is drawn twice, the unsure one included
    const keys = new Set((await db().task.findMany({ where: { projectId } })).map((t) => `${t.itemIndex}:${t.itemIndexB}`));
    expect(keys.size).toBe(40);
    // the items export names the surrogate's ids as clusters, never as reference classes
    const items = (await (await exportItems(owner, projectId, "jsonl")).text()).trim().split("\n").map((line) => JSON.parse(line));
    expect(items).toHaveLength(project.n);
    expect(items.every((r) => r.label === null && /^cluster \d+$/.test(r.pseudo_label))).toBe(true);
  });
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
            await new Promise((resolve) => setImmediate(resolve));
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

describe("the next batch", () => {
  it("never exceeds n nor repeats an item when overflow was drawn while the round trained", async () => {
    const { projectId, annotators, truth } = await digitsProject();
    await labelAll(annotators[0], projectId, truth, 20);
    await nextTasks(annotators[1], projectId, 3); // overflow before the round
    const late = (await nextTasks(annotators[0], projectId, 2)).tasks; // overflow while it "trains"
    const taken = new Set((await db().task.findMany({ where: { projectId }, select: { itemIndex: true } })).map((t) => t.itemIndex));
    const fresh = Array.from({ length: 1797 }, (_, i) => i).filter((i) => !taken.has(i));
    // the round's draws, ranked: one collides with a late overflow item
    const draws = [late[0].item.index, ...fresh.slice(1000, 1010)].map((row) => ({ row, rowB: null, score: 1, q: 1, design: "top-score" as const }));
    await transaction((tx) => fillNextBatch(tx, projectId, 0, 10, draws));
    const batch = await db().task.findMany({ where: { projectId, batch: { index: 1 } } });
    expect(batch).toHaveLength(10);
    expect(new Set(batch.map((t) => t.itemIndex)).size).toBe(10);
    expect(batch.filter((t) => t.overflow)).toHaveLength(5);
    expect(batch.filter((t) => !t.overflow).map((t) => t.itemIndex)).toEqual(fresh.slice(1000, 1005));
  });
});

describe("the recommended configuration in the app", () => {
  beforeEach(async () => {
    await db().job.deleteMany({});
  });

  it("draws the next batch by the project's design: proportional Hard NMI records each item's inclusion probability", async () => {
    const { projectId, annotators, truth } = await digitsProject({ acquisition: "hardnmi", design: "proportional", estimator: "guarded" });
    await labelAll(annotators[0], projectId, truth, 20);
    await runOneJob("w", { deps: fastWorkerDeps });
    const round = await db().round.findFirstOrThrow({ where: { projectId, index: 0 } });
    expect(round.config).toMatchObject({ design: "proportional", acquisition: "hardnmi" });
    const batch1 = await db().task.findMany({ where: { projectId, batch: { index: 1 } } });
    expect(batch1).toHaveLength(10);
    expect(batch1.every((t) => t.design === "proportional" && t.q! > 0 && t.q! <= 1)).toBe(true);
    // a probability sample: q varies with the score
    expect(new Set(batch1.map((t) => t.q!.toFixed(6))).size).toBeGreaterThan(1);
  });

  it("carries the out-of-sample record from round to round, so round 1 measures round 0's model on batch 1", async () => {
    const { projectId, annotators, truth } = await digitsProject({ acquisition: "random", estimator: "guarded" });
    await labelAll(annotators[0], projectId, truth, 20);
    await runOneJob("w", { deps: fastWorkerDeps });
    await labelAll(annotators[0], projectId, truth, 10);
    await runOneJob("w", { deps: fastWorkerDeps });
    const rounds = await db().round.findMany({ where: { projectId }, orderBy: { index: "asc" }, include: { _count: { select: { estimates: true } } } });
    expect(rounds.map((r) => [r.index, r.status, r.nLabels])).toEqual([
      [0, "done", 20],
      [1, "done", 30],
    ]);
    expect(rounds[1]._count.estimates).toBeGreaterThan(0);
    const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
    for (const r of [0, 1]) expect(fs.existsSync(projectFile(project, `rounds/round-${r}-record.json`))).toBe(true);

    // the same model as round 0's (k-NN on the seed labels), scored on batch 1 independently
    const seed = await db().task.findMany({ where: { projectId, batch: { index: 0 } } });
    const batch1 = Int32Array.from(await db().task.findMany({ where: { projectId, batch: { index: 1 } } }), (t) => t.itemIndex);
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
