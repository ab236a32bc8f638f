import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { db } from "../db";
import { simulationInput, simulationJob } from "../evaluation/simulations";
import { digitsProject, labelAll } from "../labeling/labeling-test-fixture";
import { roundJob } from "../rounds/round-job";
import { enqueueJob } from "./queue";

/**
 * Several worker processes on one database (SQLite: the embedded queue; PostgreSQL under
 * npm run test:pg: pg-boss dispatch), on the fast k-NN surrogates of ops/test-worker.ts.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (what: string, check: () => Promise<boolean> | boolean, tries = 2400) => {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-workers-"));
/** names the worker (CEREAL_WORKER_ID) that test-worker.ts holds inside its next surrogate */
const holdFile = path.join(dir, "hold");
const children: ChildProcess[] = [];

/** A worker process of these lanes; `leaseMs` short lets a dead one's job be taken over in seconds (the default is a minute). */
function startWorker(id: string, lane: "rounds" | "heavy" | "all", leaseMs = 60_000, graceMs = 1_000) {
  const child = spawn(process.execPath, ["--import", "tsx", path.join("lib", "server", "ops", "test-worker.ts"), "--lane", lane], {
    env: { ...process.env, CEREAL_WORKER_ID: id, CEREAL_TEST_HOLD_FILE: holdFile, CEREAL_JOB_LEASE_MS: String(leaseMs), CEREAL_WORKER_GRACE_MS: String(graceMs) },
    stdio: "ignore",
  });
  children.push(child);
  return child;
}

const exited = (child: ChildProcess) => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise<void>((resolve) => child.once("exit", () => resolve())));
afterEach(async () => {
  fs.rmSync(holdFile, { force: true });
  for (const child of children.splice(0)) {
    child.kill("SIGKILL");
    await exited(child);
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const runningRound = (projectId: string, owner?: string) =>
  db().job.findFirst({ where: { projectId, kind: roundJob.kind, status: "running", ...(owner ? { leaseOwner: owner } : {}) } });

describe("several worker processes", () => {
  it("two workers hammering one project never run two of its rounds at once", async () => {
    const { projectId, annotators, truth } = await digitsProject();
    startWorker("hammer-a", "rounds");
    startWorker("hammer-b", "rounds");
    // every 10 ms: how many rounds of the project hold a live lease
    let most = 0;
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const running = await db().job.count({ where: { projectId, kind: roundJob.kind, status: "running", leaseUntil: { gte: new Date() } } });
        most = Math.max(most, running);
        await sleep(10);
      }
    })();
    try {
      const roundsDone = () => db().round.count({ where: { projectId, status: "done" } });
      // the seed batch, then a batch of 10 each time a round finished: each round job is offered to
      // both workers at once (on PostgreSQL also sent again by each worker's sweep)
      for (let round = 0; round < 3; round++) {
        await labelAll(annotators[0], projectId, truth, round === 0 ? 20 : 10);
        await until(`round ${round} to finish`, async () => (await roundsDone()) > round);
      }
      expect(await roundsDone()).toBeGreaterThanOrEqual(3);
    } finally {
      watching = false;
      await watcher;
    }
    expect(most).toBe(1);
    const jobs = await db().job.findMany({ where: { projectId, kind: roundJob.kind, status: "done" } });
    const rounds = await db().round.findMany({ where: { projectId }, select: { index: true } });
    // each round ran once: one Round row and one job per index
    expect(new Set(rounds.map((r) => r.index)).size).toBe(rounds.length);
    expect(jobs.every((job) => job.attempts === 1)).toBe(true);
  }, 240_000);

  it("a worker SIGKILLed mid-round: another worker completes the round, one Round row, no label lost", async () => {
    const { projectId, annotators, truth } = await digitsProject();
    fs.writeFileSync(holdFile, "doomed");
    const doomed = startWorker("doomed", "rounds", 5_000);
    const labeled = await labelAll(annotators[0], projectId, truth, 20); // the seed batch: round 0 is queued
    await until("the doomed worker to run round 0", async () => (await runningRound(projectId, "doomed")) !== null);
    startWorker("survivor", "rounds", 5_000);
    const job = (await runningRound(projectId, "doomed"))!;
    doomed.kill("SIGKILL");
    await exited(doomed);
    // no supervisor hands the job back: the survivor takes it over once the dead worker's lease ran out
    await until("the survivor to finish round 0", async () => (await db().job.findUniqueOrThrow({ where: { id: job.id } })).status === "done");
    expect(await db().job.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ status: "done", attempts: 2, leaseOwner: null, releases: 0 });
    const rounds = await db().round.findMany({ where: { projectId, index: 0 } });
    expect(rounds).toHaveLength(1);
    expect(rounds[0]).toMatchObject({ status: "done", nLabels: labeled.length });
    expect(await db().label.count({ where: { projectId, kind: "label", withdrawn: false } })).toBe(labeled.length);
    expect(await db().label.count({ where: { projectId, kind: "label", usedByRound: 0 } })).toBe(labeled.length);
  }, 240_000);

  it("a heavy job running does not hold back a round: the round runs while the simulation does", async () => {
    const { projectId, annotators, truth } = await digitsProject();
    fs.writeFileSync(holdFile, "heavy");
    startWorker("heavy", "heavy");
    startWorker("rounds", "rounds");
    const simulation = await enqueueJob(simulationJob, { projectId, options: simulationInput.parse({ budget: 60, seedSize: 20, batch: 10 }) });
    await until("the heavy worker to run the simulation", async () => (await db().job.findUniqueOrThrow({ where: { id: simulation.id } })).status === "running");
    await labelAll(annotators[0], projectId, truth, 20);
    await until("round 0 to finish", async () => (await db().job.findFirst({ where: { projectId, kind: roundJob.kind, status: "done" } })) !== null);
    expect(await db().round.findFirstOrThrow({ where: { projectId, index: 0 } })).toMatchObject({ status: "done" });
    // the simulation is still running (held in its first surrogate) on the other worker
    expect(await db().job.findUniqueOrThrow({ where: { id: simulation.id } })).toMatchObject({ status: "running", leaseOwner: "heavy" });
  }, 240_000);

  it("drains on SIGTERM: a round that ends within the grace period is finished", async () => {
    const finishing = await digitsProject();
    fs.writeFileSync(holdFile, "finisher");
    const finisher = startWorker("finisher", "rounds", 60_000, 120_000);
    await labelAll(finishing.annotators[0], finishing.projectId, finishing.truth, 20);
    await until("the finisher to run round 0", async () => (await runningRound(finishing.projectId, "finisher")) !== null);
    finisher.kill("SIGTERM");
    fs.writeFileSync(holdFile, "nobody"); // the round goes on, within the grace period
    await exited(finisher);
    expect(finisher.exitCode).toBe(0);
    expect(await db().job.findFirstOrThrow({ where: { projectId: finishing.projectId, kind: roundJob.kind } })).toMatchObject({ status: "done", attempts: 1 });
  }, 240_000);
});
