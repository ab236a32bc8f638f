/**
 * Label-to-estimate latency (issue #24 item 3), not in CI: the time from the answer that makes a
 * round due to that round's estimates in the dashboard's snapshot (GET /api/projects/:id/progress,
 * what the live event stream sends; its feed polls once a second on top of this): first its interim
 * estimates (from the previous round's model, before the fit: `estimatesRound.interim`), then the
 * final ones.
 *   node --import tsx bench/label-to-estimate.ts [--n 10000] [--warm-steps 0,256] [--rounds 3] [--steps 1024] [--batch 50] [--seed-size 100]
 * Per --warm-steps value (0: every round trains 1,024 FixMatch steps from scratch, today's
 * recommended trainer; S: rounds after the first train S steps on from the previous round's
 * weights) it imports a generated bundle (bench/overlap-bundle.ts: N items, D = 64, 10 classes,
 * k-means k = 10) into a throw-away data folder, starts a real worker process (bin/worker.ts, the
 * TF.js MLP), labels through the labeling services in this process (nextTasks + submitLabel, the
 * reference class) and waits for round 0. Then --rounds times: labels until an answer queues the
 * next round, and polls the snapshot route handler every 50 ms until that round's interim and final
 * estimates are there. Prints both latencies with the round's wall and CPU seconds per step as the worker recorded
 * them (job result), and the load average. Not a timed test: the figures depend on the machine.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { benchDataFolder } from "./bench-data-folder";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    n: { type: "string", default: "10000" },
    "warm-steps": { type: "string", default: "0,256" },
    rounds: { type: "string", default: "3" },
    steps: { type: "string", default: "1024" },
    batch: { type: "string", default: "50" },
    "seed-size": { type: "string", default: "100" },
  },
});
const n = Number(values.n);
const rounds = Number(values.rounds);
const batch = Number(values.batch);
const seedSize = Number(values["seed-size"]);
const steps = Number(values.steps);
const arms = values["warm-steps"].split(",").map(Number);

const { root, env } = await benchDataFolder("cereal-bench-latency-");

const { migrateDatabase } = await import("@/lib/server/migrate");
const { serverConfig } = await import("@/lib/server/config");
const { db } = await import("@/lib/server/db");
const { importBundle } = await import("@/lib/server/imports/imports");
const { nextTasks } = await import("@/lib/server/labeling/tasks");
const { submitLabel } = await import("@/lib/server/labeling/labels");
const { readNpy } = await import("@/lib/data/npy");
const { roundJobKey } = await import("@/lib/server/rounds/round-job");
const { requestAs, routeContext } = await import("@/lib/server/http/test-requests");
const progressRoute = await import("@/app/api/projects/[projectId]/progress/route");
migrateDatabase(serverConfig().databasePath);

const bundle = path.join(root, "bundle");
const made = spawnSync(process.execPath, ["--import", "tsx", "bench/overlap-bundle.ts", bundle, "--n", String(n), "--d", "64", "--classes", "10", "--spread", "0.6"], { encoding: "utf8" });
if (made.status !== 0) throw new Error(`overlap-bundle.ts failed: ${made.stderr}`);
const truth = (await readNpy(path.join(bundle, "labels.npy"))).data as Int32Array;
const user = (email: string, role: "RESEARCHER" | "ANNOTATOR") =>
  db().user.create({ data: { email, name: email, role, passwordHash: "x" } }).then((u) => ({ id: u.id, email, name: email, role }));
const owner = await user("owner@bench", "RESEARCHER");
const ownerRow = await db().user.findUniqueOrThrow({ where: { id: owner.id } });
const annotator = await user("annotator@bench", "ANNOTATOR");

let worker: ChildProcess | null = null;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let keys = 0;

/** labels one task; false when none is handed out */
async function labelOne(projectId: string): Promise<boolean> {
  const [task] = (await nextTasks(annotator, projectId, 1)).tasks;
  if (!task) return false;
  await submitLabel(annotator, projectId, { taskId: task.id, kind: "label", classIndex: truth[task.item.index], idempotencyKey: `k${keys++}` });
  return true;
}

/** the dashboard's snapshot as the owner sees it, through its route handler */
async function snapshot(projectId: string) {
  const response = await progressRoute.GET(await requestAs(ownerRow, `/api/projects/${projectId}/progress`), routeContext({ projectId }));
  return (await response.json()) as { lastRound: { index: number } | null; estimates: unknown; estimatesRound: { index: number; interim: boolean } | null };
}

/** when (performance.now()) the round's interim estimates were first seen (null: never, the final ones came first), and its final ones */
async function waitForEstimates(projectId: string, round: number): Promise<{ interim: number | null; final: number }> {
  let interim: number | null = null;
  for (;;) {
    const s = await snapshot(projectId);
    const now = performance.now();
    if (s.lastRound && s.lastRound.index >= round && s.estimates) return { interim, final: now };
    if (interim === null && s.estimatesRound?.index === round && s.estimatesRound.interim && s.estimates) interim = now;
    await sleep(50);
  }
}

/** labels until an answer queues round `round`; returns when that answer was sent */
async function labelUntilDue(projectId: string, round: number): Promise<number> {
  for (;;) {
    const sent = performance.now();
    if (!(await labelOne(projectId))) {
      await sleep(50);
      continue;
    }
    if (await db().job.findFirst({ where: { dedupeKey: roundJobKey(projectId, round) }, select: { id: true } })) return sent;
  }
}

const lines: string[] = [];
try {
  for (const warmSteps of arms) {
    const { projectId } = await importBundle(bundle, owner.id, { name: `latency ${warmSteps}` });
    await db().projectMember.create({ data: { projectId, userId: annotator.id, role: "ANNOTATOR" } });
    // the recommended configuration (the import's defaults) with the warm start asked for
    await db().project.update({ where: { id: projectId }, data: { seedSize, batchSize: batch, budget: seedSize + (rounds + 2) * batch, fixmatchSteps: steps, fixmatchWarmSteps: warmSteps > 0 ? warmSteps : null, seed: 1 } });
    worker = spawn(process.execPath, ["--import", "tsx", "bin/worker.ts"], { env, stdio: ["ignore", "ignore", "inherit"] });
    await labelUntilDue(projectId, 0);
    await waitForEstimates(projectId, 0);
    for (let r = 1; r <= rounds; r++) {
      const sent = await labelUntilDue(projectId, r);
      const seen = await waitForEstimates(projectId, r);
      const interim = seen.interim === null ? "none seen" : `${((seen.interim - sent) / 1000).toFixed(2)} s`;
      const latency = (seen.final - sent) / 1000;
      // the job stores its result after the round is visible (it queues the next stages first)
      let job = await db().job.findFirstOrThrow({ where: { dedupeKey: roundJobKey(projectId, r) } });
      while (!job.result) {
        await sleep(50);
        job = await db().job.findFirstOrThrow({ where: { dedupeKey: roundJobKey(projectId, r) } });
      }
      const result = job.result as { steps: Record<string, number>; cpu: Record<string, number> };
      const perStep = Object.keys(result.steps)
        .map((s) => `${s} ${result.steps[s].toFixed(2)} (${result.cpu[s].toFixed(2)})`)
        .join(", ");
      const line = `${warmSteps > 0 ? `warm ${warmSteps} steps` : `cold ${steps} steps`}: round ${r} interim estimates ${interim}, final ${latency.toFixed(2)} s after the answer that made it due; worker wall (CPU) s: ${perStep}; load ${os.loadavg()[0].toFixed(1)}`;
      console.log(line);
      lines.push(line);
    }
    worker.kill("SIGTERM");
    await new Promise((resolve) => worker!.once("exit", resolve));
    worker = null;
  }
  console.log(`\n== bench/label-to-estimate.ts: N=${n} D=64 10 classes, seed ${seedSize}, batches of ${batch}, ${os.cpus().length} cores`);
  for (const line of lines) console.log(line);
} finally {
  worker?.kill("SIGKILL");
  await db().$disconnect();
  await rm(root, { recursive: true, force: true });
}
