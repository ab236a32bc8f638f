import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { createKnnSurrogateFactory } from "@/lib/cereal/fakes/knn-surrogate";
import type { Surrogate, SurrogateFactory } from "@/lib/cereal/method/surrogate";
import { readNpy } from "@/lib/data/npy";
import { METRIC_KEYS } from "@/lib/metrics";
import { db } from "../db";
import type { WorkerDeps } from "../jobs/definition";
import { runOneJob } from "../jobs/worker-loop";
import { digitsProject, fastWorkerDeps, labelAll } from "../labeling/labeling-test-fixture";
import { projectSnapshot } from "../live/events";
import { estimateHistory } from "../project-data/estimate-history";
import { projectFile } from "../project-data/paths";
import { exportEstimates } from "../exports/exports";
import { listRounds } from "./round-history";
import { runRound } from "./round-steps";

/**
 * Interim estimates (issue #24): when round R is due the worker estimates at once with round
 * R - 1's stored pi, before the fit; the final estimates replace them. A gated surrogate holds
 * the fit, so what the API shows meanwhile is read without timing.
 */

/** The k-NN surrogate with its fit held until `release`, and (replay) round 0's stored pi as its predictions. */
function gatedSurrogate(replay?: Float32Array) {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  let entered = () => {};
  const fitEntered = new Promise<void>((resolve) => (entered = resolve));
  const knn = createKnnSurrogateFactory();
  const createSurrogate: SurrogateFactory = async (embeddings, numClasses) => {
    const inner = await knn(embeddings, numClasses);
    const surrogate: Surrogate = {
      async fit(labeled, unlabeled, options, onProgress) {
        entered();
        await gate;
        return inner.fit(labeled, unlabeled, options, onProgress);
      },
      async predictProba(rows) {
        if (!replay) return inner.predictProba(rows);
        const out = new Float32Array(rows.length * numClasses);
        rows.forEach((row, i) => out.set(replay.subarray(row * numClasses, (row + 1) * numClasses), i * numClasses));
        return out;
      },
      predictProbaMc: (rows, passes, seed) => inner.predictProbaMc(rows, passes, seed),
      dispose: () => inner.dispose(),
    };
    return surrogate;
  };
  return { deps: { ...fastWorkerDeps, createSurrogate }, fitEntered, release };
}

/** Runs the project's queued round job (other tests' jobs, a webhook delivery among them, stay queued). */
async function runRoundJob(projectId: string, deps: WorkerDeps): Promise<boolean> {
  const job = await db().job.findFirstOrThrow({ where: { projectId, kind: "round", status: "queued" }, select: { id: true } });
  return runOneJob("w", { deps, jobId: job.id });
}

const values = (points: readonly { clustering: string; metric: string; value: number; lo: number | null; hi: number | null }[]) =>
  points.map((e) => [`${e.clustering} ${e.metric}`, e.value, e.lo, e.hi] as const).sort((a, b) => a[0].localeCompare(b[0]));

describe("interim estimates", () => {
  it("are shown while round R trains, equal round R's estimate with round R - 1's pi, fire no webhook, and are replaced by the final ones", async () => {
    const { projectId, owner, annotators, truth } = await digitsProject({ estimator: "soft" });
    const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
    await labelAll(annotators[0], projectId, truth, 20);
    expect(await runRoundJob(projectId, fastWorkerDeps)).toBe(true);
    // round 0 has no earlier model: no interim estimate, and its estimates are final
    expect((await projectSnapshot(owner, projectId)).estimatesRound).toEqual({ index: 0, nLabels: 20, interim: false, model: 0 });
    const round0 = await db().round.findUniqueOrThrow({ where: { projectId_index: { projectId, index: 0 } } });
    expect(round0.interimEstimates).toBeNull();
    const proba0 = (await readNpy(projectFile(project, round0.probaFile!))).data as Float32Array;
    await db().webhook.create({ data: { projectId, url: "https://hooks.example.com/cereal", secret: "whsec_dGVzdA==" } });

    await labelAll(annotators[0], projectId, truth, 10);
    const gated = gatedSurrogate(proba0);
    const job = runRoundJob(projectId, gated.deps);
    await gated.fitEntered;

    // the fit has not run: the snapshot (GET progress, live events) shows round 1's interim estimates from model 0
    const during = await projectSnapshot(owner, projectId);
    expect(during.estimatesRound).toEqual({ index: 1, nLabels: 30, interim: true, model: 0 });
    expect(during.lastRound?.index).toBe(0);
    const interim = (await estimateHistory(projectId, { withInterim: true })).at(-1)!;
    expect(interim).toMatchObject({ index: 1, interim: true, finishedAt: null });
    expect(interim.estimates).toHaveLength(METRIC_KEYS.length * (await db().clustering.count({ where: { projectId } })));
    expect(during.estimates!.kmeans_k10.nmi.value).toBe(interim.estimates.find((e) => e.clustering === "kmeans_k10" && e.metric === "nmi")!.value);
    // the rounds list and the estimates export mark them interim; the stop rule's history does not hold them
    const rounds = (await listRounds(owner, projectId)).rounds;
    expect(rounds.map((r) => [r.index, r.status, r.interim])).toEqual([
      [0, "done", false],
      [1, "running", true],
    ]);
    const csv = await (await exportEstimates(owner, projectId)).text();
    expect(csv.split("\n")[0]).toMatch(/,finished_at,interim$/);
    expect(csv.split("\n").filter((line) => line.startsWith("1,30,")).every((line) => line.endsWith(",true"))).toBe(true);
    expect((await estimateHistory(projectId)).map((r) => r.index)).toEqual([0]);
    // no webhook event for an interim estimate
    expect(await db().webhookDelivery.count({ where: { webhook: { projectId } } })).toBe(0);

    gated.release();
    expect(await job).toBe(true);
    const after = await projectSnapshot(owner, projectId);
    expect(after.estimatesRound).toEqual({ index: 1, nLabels: 30, interim: false, model: 1 });
    const final = await db().round.findUniqueOrThrow({ where: { projectId_index: { projectId, index: 1 } }, include: { estimates: { include: { clustering: true } } } });
    expect(final.status).toBe("done");
    expect(final.interimEstimates).toBeNull();
    // the surrogate replayed round 0's pi, so the round's own estimate step computed directly what the interim one did
    expect(values(final.estimates.map((e) => ({ ...e, clustering: e.clustering.name })))).toEqual(values(interim.estimates));
    expect((await db().webhookDelivery.findMany({ where: { webhook: { projectId } } })).map((d) => d.event)).toContain("round.completed");
  }, 120_000);

  it("are withheld from an annotator who may not see estimates, and shown to one who may", async () => {
    const { projectId, annotators, truth } = await digitsProject({ estimator: "soft" });
    await labelAll(annotators[0], projectId, truth, 20);
    expect(await runRoundJob(projectId, fastWorkerDeps)).toBe(true);
    await labelAll(annotators[0], projectId, truth, 10);
    const gated = gatedSurrogate();
    const job = runRoundJob(projectId, gated.deps);
    await gated.fitEntered;
    const hidden = await projectSnapshot(annotators[1], projectId);
    expect(hidden).toMatchObject({ estimates: null, estimatesRound: null });
    expect((await listRounds(annotators[1], projectId)).rounds.map((r) => [r.index, r.interim, r.estimates])).toEqual([
      [0, false, null],
      [1, false, null],
    ]);
    await expect(exportEstimates(annotators[1], projectId)).rejects.toMatchObject({ status: 403 });
    await db().project.update({ where: { id: projectId }, data: { annotatorsSeeEstimates: true } });
    expect((await projectSnapshot(annotators[1], projectId)).estimatesRound).toMatchObject({ index: 1, interim: true, model: 0 });
    gated.release();
    expect(await job).toBe(true);
  }, 120_000);

  it("leave a round killed after them to resume to the same final results", async () => {
    const { projectId, owner, annotators, truth } = await digitsProject({ estimator: "soft" });
    const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
    await labelAll(annotators[0], projectId, truth, 20);
    expect(await runRoundJob(projectId, fastWorkerDeps)).toBe(true);
    await labelAll(annotators[0], projectId, truth, 10);
    expect(await runRoundJob(projectId, fastWorkerDeps)).toBe(true);
    const first = await db().round.findUniqueOrThrow({ where: { projectId_index: { projectId, index: 1 } }, include: { estimates: { orderBy: [{ clusteringId: "asc" }, { metric: "asc" }] } } });
    const results = fs.readFileSync(projectFile(project, first.resultsFile!));

    // the worker dies during the fit, after the interim estimates were stored: the row is running and shows them
    await db().round.update({ where: { id: first.id }, data: { status: "running" } });
    const dies = () => Promise.reject(new Error("killed"));
    const killed = { ...fastWorkerDeps, createSurrogate: async (): Promise<Surrogate> => ({ fit: dies, predictProba: dies, predictProbaMc: dies, dispose: () => {} }) };
    const controller = new AbortController();
    await expect(runRound({ projectId, round: 1, jobId: "killed", deps: killed, signal: controller.signal, progress: async () => true })).rejects.toThrow("killed");
    expect((await projectSnapshot(owner, projectId)).estimatesRound).toMatchObject({ index: 1, interim: true });

    // resumed: the same results file and estimates as the round that ran straight through (its ranking
    // now leaves out the stage drawn after it finished the first time, as any resumed round's would)
    await runRound({ projectId, round: 1, jobId: "resumed", deps: fastWorkerDeps, signal: controller.signal, progress: async () => true });
    const again = await db().round.findUniqueOrThrow({ where: { id: first.id }, include: { estimates: { orderBy: [{ clusteringId: "asc" }, { metric: "asc" }] } } });
    expect(again).toMatchObject({ status: "done", interimEstimates: null });
    expect(fs.readFileSync(projectFile(project, again.resultsFile!)).equals(results)).toBe(true);
    expect(again.estimates.map((e) => [e.metric, e.value, e.lo, e.hi, e.pBest])).toEqual(first.estimates.map((e) => [e.metric, e.value, e.lo, e.hi, e.pBest]));
  }, 120_000);
});
