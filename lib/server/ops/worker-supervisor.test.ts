import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "../db";
import { digitsProject, labelAll } from "../labeling/labeling-test-fixture";
import { projectSnapshot } from "../live/events";
import { roundJob } from "../rounds/round-job";
import { DEFAULT_BACKOFF, describeExit, nextDelay, superviseWorker, workerNice } from "./worker-supervisor";

const until = async (what: string, check: () => Promise<boolean> | boolean, tries = 1200) => {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
};

const holdDirs: string[] = [];
/** A file whose content names the worker to hold inside its round (test-worker.ts). */
const holdFile = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-hold-"));
  holdDirs.push(dir);
  return path.join(dir, "hold");
};
afterAll(() => holdDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe("worker supervisor", () => {
  it("backs off by doubling up to the cap while workers die young, and starts over after a healthy run", () => {
    const waits: number[] = [];
    let delay: number | null = null;
    for (let i = 0; i < 9; i++) waits.push((delay = nextDelay(delay, 1_000)));
    expect(waits).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
    expect(nextDelay(30_000, DEFAULT_BACKOFF.healthyMs)).toBe(500);
    expect(describeExit(null, "SIGKILL")).toBe("signal SIGKILL");
    expect(describeExit(3, null)).toBe("exit code 3");
  });

  it("runs the worker nicer than the web process by CEREAL_WORKER_NICE (10 by default), every thread of it", async () => {
    expect(workerNice({})).toBe(10);
    expect(workerNice({ CEREAL_WORKER_NICE: "0" })).toBe(0);
    expect(workerNice({ CEREAL_WORKER_NICE: " 5 " })).toBe(5);
    for (const bad of ["-1", "20", "2.5", "low"]) expect(() => workerNice({ CEREAL_WORKER_NICE: bad })).toThrow(/CEREAL_WORKER_NICE/);

    const lines: string[] = [];
    const supervisor = superviseWorker({ command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"], stdio: "ignore", nice: 3, say: (line) => lines.push(line) });
    try {
      const pid = supervisor.child()!.pid!;
      const expected = Math.min(19, os.getPriority() + 3);
      expect(os.getPriority(pid)).toBe(expected);
      if (process.platform === "linux") {
        // the threads Node starts after the spawn (V8's, libuv's) inherit it: field 19 of each thread's stat
        await until("the worker's threads to start", () => fs.readdirSync(`/proc/${pid}/task`).length > 1);
        const nices = fs.readdirSync(`/proc/${pid}/task`).map((tid) => Number(fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").replace(/^.*\) /, "").split(" ")[16]));
        expect(new Set(nices)).toEqual(new Set([expected]));
      }
      expect(lines).toEqual([]);
    } finally {
      await supervisor.stop(1_000);
    }
  });

  it("restarts a SIGKILLed worker, hands its round to the new worker before the lease would run out, and the app answers throughout", async () => {
    const { projectId, owner, annotators, truth } = await digitsProject();
    await labelAll(annotators[0], projectId, truth, 20); // the seed batch: round 0 is queued

    // the "web app" of this process: the live snapshot over HTTP, polled while the worker dies
    const server = http.createServer((_req, res) => {
      projectSnapshot(owner, projectId).then(
        (snapshot) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(snapshot)),
        (error: Error) => res.writeHead(500).end(error.message),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const answers: number[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        answers.push(await fetch(url).then((r) => r.status, () => 0));
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();

    const hold = holdFile();
    const lines: string[] = [];
    const supervisor = superviseWorker({
      command: process.execPath,
      args: ["--import", "tsx", path.join("lib", "server", "ops", "test-worker.ts")],
      env: { ...process.env, CEREAL_TEST_HOLD_FILE: hold },
      stdio: "ignore",
      say: (line) => lines.push(line),
      backoff: { initialMs: 100 },
    });
    try {
      const first = supervisor.workerId()!;
      fs.writeFileSync(hold, first); // the first worker holds its round; its successor will not
      await until("the first worker to run round 0", async () => (await db().job.findFirst({ where: { projectId, kind: roundJob.kind, status: "running", leaseOwner: first } })) !== null);
      const running = await db().job.findFirstOrThrow({ where: { projectId, kind: roundJob.kind } });
      const leaseExpiry = running.leaseUntil!;
      expect(running.attempts).toBe(1);

      const answeredBeforeKill = answers.length;
      supervisor.child()!.kill("SIGKILL");
      await until("the restarted worker to finish round 0", async () => (await db().job.findUniqueOrThrow({ where: { id: running.id } })).status === "done");
      const job = await db().job.findUniqueOrThrow({ where: { id: running.id } });
      // handed back by the supervisor and finished by the new worker, both before the dead worker's lease would have run out
      expect(job.releases).toBe(1);
      expect(job.releasedAt!.getTime()).toBeLessThan(leaseExpiry.getTime());
      expect(job.finishedAt!.getTime()).toBeLessThan(leaseExpiry.getTime());
      expect(job.attempts).toBe(1); // the killed attempt does not count against the job
      expect(await db().round.findFirstOrThrow({ where: { projectId, index: 0 } })).toMatchObject({ status: "done" });
      expect(supervisor.restarts()).toBe(1);
      expect(supervisor.workerId()).not.toBe(first);
      expect((await db().workerHeartbeat.findUniqueOrThrow({ where: { id: first } })).stoppedAt).not.toBeNull();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^the worker \(pid \d+\) died \(signal SIGKILL\) after [\d.]+ s; its running job\(s\) handed back: 1 queued again, 0 failed after dying too often; restarting it in 0\.1 s$/);

      const second = supervisor.workerId()!;
      await supervisor.stop();
      expect(supervisor.child()).toBeNull();
      expect((await db().workerHeartbeat.findUniqueOrThrow({ where: { id: second } })).stoppedAt).not.toBeNull();
      polling = false;
      await poller;
      expect(answers.length).toBeGreaterThan(answeredBeforeKill);
      expect(answers.filter((status) => status !== 200)).toEqual([]);
    } finally {
      polling = false;
      await supervisor.stop(1_000);
      server.close();
    }
  }, 120_000);

  it("stops a worker that does not stop on SIGTERM with SIGKILL, and queues its round again at once", async () => {
    const { projectId, annotators, truth } = await digitsProject();
    await labelAll(annotators[0], projectId, truth, 20);
    const hold = holdFile();
    const supervisor = superviseWorker({
      command: process.execPath,
      args: ["--import", "tsx", path.join("lib", "server", "ops", "test-worker.ts")],
      env: { ...process.env, CEREAL_TEST_HOLD_FILE: hold },
      stdio: "ignore",
    });
    const stuck = supervisor.workerId()!;
    fs.writeFileSync(hold, stuck); // held inside the round, it never gets back to its stop signal
    await until("the worker to run round 0", async () => (await db().job.findFirst({ where: { projectId, kind: roundJob.kind, status: "running", leaseOwner: stuck } })) !== null);
    const child = supervisor.child()!;
    await supervisor.stop(500);
    expect(child.signalCode).toBe("SIGKILL");
    expect(await db().job.findFirstOrThrow({ where: { projectId, kind: roundJob.kind } })).toMatchObject({ status: "queued", leaseOwner: null, releases: 1, attempts: 0 });
    expect(supervisor.restarts()).toBe(0);
  }, 120_000);
});
