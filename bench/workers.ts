/**
 * Several worker processes (issue #21): projects labeled by bots at once; not run in CI.
 *   node --import tsx bench/workers.ts --db sqlite|postgresql --workers all|rounds,all|rounds,heavy|...
 *     [--simulation] [--fake] [--projects 6] [--seconds 120] [--think 1] [--max-labels 200] [--steps 64]
 * 1. a fresh database (a SQLite file in a temp folder, or a schema on the test PostgreSQL server,
 *    dropped at the end) and data folder; --projects copies of the shipped digits bundle (N = 1797),
 *    each with seed 20, batches of 10 and one annotator (lib/server/labeling/labeling-test-fixture.ts);
 * 2. one worker process per entry of --workers, on that lane: bin/worker.ts (TF.js; rounds of
 *    --steps FixMatch steps, the project setting) or with --fake ops/test-worker.ts (k-NN fakes, no
 *    TF.js, polls every 50 ms instead of 500 ms); --simulation also queues a simulation job (budget
 *    1700, the heavy lane) on the first project once the workers are up;
 * 3. one bot per project, in this process, through the same service functions as the label page's
 *    calls (nextTasks, submitLabel; no HTTP): next task -> think --think s +- 50% -> answer with the
 *    reference class; no task -> ask again after 0.25 s; bounded by --seconds and --max-labels;
 *    meanwhile every 100 ms it notes which round jobs are running;
 * 4. prints rounds per minute, due -> start and due -> estimates per round (due: the round job was
 *    queued, by the answer that made it due or by the end of the previous round when answers came
 *    in during it; start: first seen running, +- 0.1 s; estimates: the job finished), free -> start
 *    (due -> start less the wait behind other projects' rounds that started before it: what a
 *    simulation on the heavy lane could add), the most rounds running at once, and the CPU seconds
 *    of each worker process (and of this process) while the bots ran (Linux /proc), with the load
 *    average: the figures read on a shared 2-core machine;
 * 5. SIGTERMs the workers and SIGKILLs any still running 40 s later (says so), then drops the
 *    database and the temp folder.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { cpuSeconds } from "./process-cpu.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    db: { type: "string", default: "sqlite" },
    workers: { type: "string", default: "rounds,heavy" },
    simulation: { type: "boolean", default: false },
    fake: { type: "boolean", default: false },
    projects: { type: "string", default: "6" },
    seconds: { type: "string", default: "120" },
    think: { type: "string", default: "1" },
    "max-labels": { type: "string", default: "200" },
    steps: { type: "string", default: "64" },
  },
});
const projects = Number(values.projects);
const seconds = Number(values.seconds);
const thinkMs = Number(values.think) * 1000;
const maxLabels = Number(values["max-labels"]);
const steps = Number(values.steps);
for (const [name, value] of Object.entries({ projects, seconds, "max-labels": maxLabels, steps })) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number (got ${value}).`);
}
if (!(thinkMs >= 0)) throw new Error(`--think must be seconds >= 0 (got ${values.think}).`);
if (values.db !== "sqlite" && values.db !== "postgresql") throw new Error(`--db is sqlite or postgresql (got ${values.db}).`);
const lanes = values.workers!.split(",");
if (!lanes.every((lane) => ["rounds", "heavy", "all"].includes(lane))) throw new Error(`--workers lists lanes: rounds, heavy, all (got ${values.workers}).`);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-workers-bench-"));
process.env.CEREAL_DATA_DIR = path.join(tmp, "data");
process.env.NEXTAUTH_SECRET = "bench-secret-for-session-tokens-only";
process.env.CEREAL_LOG_LEVEL = "warn";
const { createTestSchema, dropTestSchema } = await import("../lib/server/test-postgresql.ts");
const { migrateDatabase } = await import("../lib/server/migrate.ts");
if (values.db === "postgresql") process.env.DATABASE_URL = await createTestSchema();
else {
  fs.mkdirSync(process.env.CEREAL_DATA_DIR, { recursive: true });
  process.env.DATABASE_URL = `file:${path.join(process.env.CEREAL_DATA_DIR, "cereal.db")}`;
  migrateDatabase(path.join(process.env.CEREAL_DATA_DIR, "cereal.db"));
}
const { db } = await import("../lib/server/db.ts");
const { digitsProject } = await import("../lib/server/labeling/labeling-test-fixture.ts");
const { nextTasks } = await import("../lib/server/labeling/tasks.ts");
const { submitLabel } = await import("../lib/server/labeling/labels.ts");
const { enqueueJob } = await import("../lib/server/jobs/queue.ts");
const { stopPgBoss } = await import("../lib/server/jobs/pg-boss.ts");
const { simulationInput, simulationJob } = await import("../lib/server/evaluation/simulations.ts");
const { roundJob } = await import("../lib/server/rounds/round-job.ts");
const log = (line: string) => console.log(`[workers] ${line}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// 1. the projects
const made: Awaited<ReturnType<typeof digitsProject>>[] = [];
for (let i = 0; i < projects; i++) made.push(await digitsProject({ seedSize: 20, batchSize: 10, budget: 1797, fixmatch: !values.fake, fixmatchSteps: steps }));
log(`${projects} digits projects on ${values.db} (data ${process.env.CEREAL_DATA_DIR})`);

// 2. the workers
const script = values.fake ? path.join("lib", "server", "ops", "test-worker.ts") : path.join("bin", "worker.ts");
const workers: { name: string; child: ChildProcess }[] = lanes.map((lane, i) => {
  const name = `bench-${i}-${lane}`;
  const out = fs.openSync(path.join(tmp, `${name}.log`), "w");
  const child = spawn(process.execPath, ["--import", "tsx", script, "--lane", lane], { env: { ...process.env, CEREAL_WORKER_ID: name }, stdio: ["ignore", out, out] });
  return { name, child };
});
// a bench that fails leaves no worker behind
process.once("exit", () => workers.forEach(({ child }) => child.exitCode === null && child.kill("SIGKILL")));
for (let t = Date.now(); (await db().workerHeartbeat.count({ where: { stoppedAt: null } })) < workers.length; await sleep(200)) {
  if (Date.now() - t > 120_000) throw new Error(`the workers did not start within 120 s; their logs are in ${tmp}`);
}
const simulation = values.simulation ? await enqueueJob(simulationJob, { projectId: made[0].projectId, options: simulationInput.parse({ budget: 1700, seedSize: 20, batch: 10 }) }) : null;
log(`${workers.length} workers up (${lanes.join(", ")}; ${values.fake ? "k-NN fakes" : `TF.js, ${steps} FixMatch steps a round`})${simulation ? "; a simulation queued on the heavy lane" : ""}`);

// 3. bots and the watcher
const loadAtStart = os.loadavg()[0];
const cpuAtStart = workers.map(({ child }) => cpuSeconds(child.pid));
const selfAtStart = process.cpuUsage();
const started = Date.now();
const deadline = started + seconds * 1000;
let labels = 0;
let noTask = 0;
async function bot({ projectId, annotators, truth }: (typeof made)[number]) {
  for (let mine = 0; Date.now() < deadline && mine < maxLabels; ) {
    const { tasks } = await nextTasks(annotators[0], projectId, 1);
    if (!tasks.length) {
      noTask++;
      await sleep(250);
      continue;
    }
    await sleep(thinkMs * (0.5 + Math.random()));
    await submitLabel(annotators[0], projectId, { taskId: tasks[0].id, kind: "label", classIndex: truth[tasks[0].item.index], idempotencyKey: `bench-${projectId}-${mine}` });
    mine++;
    labels++;
  }
}
const startSeen = new Map<string, number>();
let simulationRunningAt: number[] = [];
async function watch(until: () => boolean) {
  while (!until()) {
    const running = await db().job.findMany({ where: { kind: roundJob.kind, status: "running" }, select: { id: true } });
    for (const job of running) if (!startSeen.has(job.id)) startSeen.set(job.id, Date.now());
    if (simulation) simulationRunningAt.push((await db().job.findUniqueOrThrow({ where: { id: simulation.id } })).status === "running" ? 1 : 0);
    await sleep(100);
  }
}
let botsDone = false;
await Promise.all([Promise.all(made.map(bot)).then(() => (botsDone = true)), watch(() => botsDone)]);
const elapsed = (Date.now() - started) / 1000;
const cpuAtEnd = workers.map(({ child }) => cpuSeconds(child.pid));
const self = process.cpuUsage(selfAtStart);
const loadAtEnd = os.loadavg()[0];
const simulationSeen = simulationRunningAt;
simulationRunningAt = [];
const simulationAtEnd = simulation ? await db().job.findUniqueOrThrow({ where: { id: simulation.id } }) : null;

// 4. the figures: rounds finished while the bots ran
const jobs = await db().job.findMany({ where: { kind: roundJob.kind, status: "done", finishedAt: { lte: new Date(started + elapsed * 1000) } }, select: { id: true, projectId: true, createdAt: true, finishedAt: true } });
const rounds = jobs.map((job) => ({
  project: job.projectId,
  due: job.createdAt.getTime(),
  start: startSeen.get(job.id) ?? null,
  end: job.finishedAt!.getTime(),
}));
const spans = rounds.filter((r) => r.start !== null).map((r) => ({ ...r, start: r.start! }));
let most = 0;
let mostProjects = 0;
for (const r of spans) {
  const at = spans.filter((s) => s.start <= r.start && s.end > r.start);
  most = Math.max(most, at.length);
  mostProjects = Math.max(mostProjects, new Set(at.map((s) => s.project)).size);
}
const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] : NaN);
const sec = (xs: number[]) => `p50 ${pct(xs, 0.5).toFixed(2)} s / p95 ${pct(xs, 0.95).toFixed(2)} s / max ${Math.max(...xs).toFixed(2)} s (${xs.length} rounds)`;
const toStart = spans.map((r) => (r.start - r.due) / 1000);
console.log(`\n== bench/workers.ts: ${values.db}, workers ${lanes.join(" + ")}, ${values.fake ? "--fake (k-NN surrogates)" : `TF.js, ${steps} FixMatch steps`}, ${projects} projects x 1 bot, think ${values.think} s +- 50%, ${elapsed.toFixed(0)} s${simulation ? ", a simulation on the heavy lane" : ""}`);
console.log(`machine:            ${os.cpus().length} cores, load average ${loadAtStart.toFixed(1)} at the start, ${loadAtEnd.toFixed(1)} at the end (1 min)`);
console.log(`labels:             ${labels} (${(labels / elapsed).toFixed(2)}/s); next task without a task: ${noTask} calls`);
console.log(`rounds finished:    ${rounds.length} (${((60 * rounds.length) / elapsed).toFixed(1)} per minute)`);
console.log(`due -> start:       ${sec(toStart)}; over 2 s: ${toStart.filter((s) => s > 2).length}`);
// the part of due -> start not spent behind rounds of other projects started before it: from the
// later of due and the end of the last such round to its start (read with one rounds worker)
const freeToStart = spans.map((r) => {
  const ahead = spans.filter((s) => s !== r && s.start < r.start && s.end > r.due);
  return Math.max(0, r.start - Math.max(r.due, ...ahead.map((s) => s.end))) / 1000;
});
console.log(`free -> start:      ${sec(freeToStart)}; over 2 s: ${freeToStart.filter((s) => s > 2).length} (due -> start less the wait behind other projects' rounds)`);
console.log(`due -> estimates:   ${sec(rounds.map((r) => (r.end - r.due) / 1000))}`);
console.log(`round alone:        ${sec(spans.map((r) => (r.end - r.start) / 1000))} (start -> estimates)`);
const waiting = await db().job.findMany({ where: { kind: roundJob.kind, status: "queued" }, select: { createdAt: true } });
const waitedMost = Math.max(0, ...waiting.map((job) => started + elapsed * 1000 - job.createdAt.getTime())) / 1000;
console.log(`still queued:       ${waiting.length} rounds due at the end${waiting.length ? `, the oldest due ${waitedMost.toFixed(1)} s before` : ""}`);
console.log(`at once:            at most ${most} rounds running, of ${mostProjects} different projects`);
workers.forEach(({ name }, i) => {
  const used = cpuAtStart[i] !== null && cpuAtEnd[i] !== null ? cpuAtEnd[i]! - cpuAtStart[i]! : null;
  console.log(`CPU ${name.padEnd(15)} ${used === null ? "not measured (no /proc)" : `${used.toFixed(1)} s in ${elapsed.toFixed(0)} s (${((100 * used) / elapsed).toFixed(0)}% of a core)`}`);
});
console.log(`CPU bots + watcher: ${((self.user + self.system) / 1e6).toFixed(1)} s (this process; the database server's own CPU is not counted)`);
if (simulation) {
  const share = simulationSeen.length ? simulationSeen.reduce((a, b) => a + b, 0) / simulationSeen.length : 0;
  console.log(`simulation:         running in ${(100 * share).toFixed(0)}% of the watcher's looks; ${simulationAtEnd!.status} at the end`);
}

for (const { name, child } of workers) {
  if (child.exitCode === null && child.signalCode === null) continue;
  const lines = fs.readFileSync(path.join(tmp, `${name}.log`), "utf8").trim().split("\n");
  console.log(`worker ${name} exited early (${child.signalCode ?? child.exitCode}); its log ends:\n  ${lines.slice(-8).join("\n  ")}`);
}

// stop: SIGTERM drains each worker (the running job finishes, or goes back after CEREAL_WORKER_GRACE_MS, 20 s)
const stopped = await Promise.all(
  workers.map(async ({ name, child }) => {
    if (child.exitCode !== null || child.signalCode !== null) return null;
    const exit = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    if (await Promise.race([exit.then(() => true), sleep(40_000).then(() => false)])) return null;
    child.kill("SIGKILL");
    await exit;
    return name;
  }),
);
for (const name of stopped.filter(Boolean)) console.log(`worker ${name} still ran 40 s after SIGTERM: SIGKILLed`);
await stopPgBoss();
await db().$disconnect();
if (values.db === "postgresql") await dropTestSchema(process.env.DATABASE_URL!);
fs.rmSync(tmp, { recursive: true, force: true });
