import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db";
import { runOneJob } from "@/lib/server/jobs/worker-loop";
import { digitsProject, labelAll } from "@/lib/server/labeling/labeling-test-fixture";
import { projectFile } from "@/lib/server/project-data/paths";
import { runRound } from "@/lib/server/rounds/round-steps";
import { ensureBackend } from "../models/backend";
import { createMclSurrogate, createMlpSurrogate } from "../models/index";

/**
 * The worker's rounds with the real TF.js surrogate (bin/worker.ts's deps) on a warm-starting
 * project: round R trains on from round R - 1's weights file, and a round resumed after a kill
 * (the previous weights still there, the Round row still running) trains to the same weights.
 */
const deps = { createSurrogate: createMlpSurrogate, createPairwiseSurrogate: createMclSurrogate };

beforeAll(async () => {
  process.env.CEREAL_TF_BACKEND = "wasm";
  await ensureBackend();
});

describe("warm-started rounds in the worker", () => {
  it("hand their weights on, and a round resumed after a kill continues identically", async () => {
    const { projectId, annotators, truth } = await digitsProject({ fixmatch: true, fixmatchSteps: 24, fixmatchWarmSteps: 8, estimator: "soft" });
    const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
    const file = (name: string) => projectFile(project, `rounds/${name}`);
    await labelAll(annotators[0], projectId, truth, 20);
    expect(await runOneJob("w", { deps })).toBe(true);
    const round0 = fs.readFileSync(file("round-0-weights.npy"));
    await labelAll(annotators[0], projectId, truth, 10);
    expect(await runOneJob("w", { deps })).toBe(true);
    const first = await db().round.findUniqueOrThrow({ where: { projectId_index: { projectId, index: 1 } }, include: { estimates: { orderBy: [{ clusteringId: "asc" }, { metric: "asc" }] } } });
    expect(first).toMatchObject({ status: "done", nLabels: 30 });
    expect(first.config).toMatchObject({ fixmatchSteps: 24, fixmatchWarmSteps: 8 });
    const weights1 = fs.readFileSync(file("round-1-weights.npy"));
    const results1 = fs.readFileSync(file("round-1.npy"));
    // only the latest round's weights are kept
    expect(fs.existsSync(file("round-0-weights.npy"))).toBe(false);

    // killed after writing its files, before it was marked done: round 0's weights are still there and the row is running
    fs.writeFileSync(file("round-0-weights.npy"), round0);
    await db().round.update({ where: { id: first.id }, data: { status: "running" } });
    const controller = new AbortController();
    const resumed = await runRound({ projectId, round: 1, jobId: "resumed", deps, signal: controller.signal, progress: async () => true });
    expect(resumed).toMatchObject({ round: 1, nLabels: 30 });
    expect(fs.readFileSync(file("round-1-weights.npy")).equals(weights1)).toBe(true);
    expect(fs.readFileSync(file("round-1.npy")).equals(results1)).toBe(true);
    const again = await db().round.findUniqueOrThrow({ where: { id: first.id }, include: { estimates: { orderBy: [{ clusteringId: "asc" }, { metric: "asc" }] } } });
    expect(again.status).toBe("done");
    expect(again.estimates.map((e) => [e.metric, e.value, e.lo, e.hi])).toEqual(first.estimates.map((e) => [e.metric, e.value, e.lo, e.hi]));

    // from scratch instead (warm start off): round 1's fit does not read round 0's weights, so it trains to other ones
    fs.writeFileSync(file("round-0-weights.npy"), round0);
    await db().project.update({ where: { id: projectId }, data: { fixmatchWarmSteps: null } });
    await db().round.update({ where: { id: first.id }, data: { status: "running" } });
    await runRound({ projectId, round: 1, jobId: "cold", deps, signal: controller.signal, progress: async () => true });
    expect(fs.readFileSync(file("round-1.npy")).equals(results1)).toBe(false);
  }, 120_000);
});
