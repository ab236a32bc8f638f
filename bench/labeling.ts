/**
 * `node --import tsx bench/labeling.ts [--n 100000]`: the labeling loop's two figures.
 * (1) next-task and label latency (p50, p95) while a round trains in a real worker process on
 *     the demo bundle; (2) the round's write time (per-item .npy + estimates + next batch) at a
 *     synthetic N (default 100k, D = 128). Uses a throw-away data folder.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-bench-"));
process.env.CEREAL_DATA_DIR = dataDir;
process.env.NEXTAUTH_SECRET = "bench";
const n = Number(process.argv[process.argv.indexOf("--n") + 1] || 100_000);

const { migrateConfiguredDatabase } = await import("../lib/server/migrate.ts");
await migrateConfiguredDatabase();
const { db } = await import("../lib/server/db.ts");
const { importBundle } = await import("../lib/server/imports/imports.ts");
const { nextTasks } = await import("../lib/server/labeling/tasks.ts");
const { submitLabel } = await import("../lib/server/labeling/labels.ts");
const { runOneJob } = await import("../lib/server/jobs/worker-loop.ts");
const { jobResult } = await import("../lib/server/jobs/queue.ts");
const { roundJob } = await import("../lib/server/rounds/round-job.ts");
const { ROUND_STEPS } = await import("../lib/server/rounds/round-steps.ts");
const { createKnnSurrogateFactory } = await import("../lib/cereal/fakes/knn-surrogate.ts");
const { readNpy, writeNpy } = await import("../lib/data/npy.ts");
const { Random } = await import("../lib/random/named-streams.ts");

const user = async (email: string, role: "RESEARCHER" | "ANNOTATOR") =>
  db().user.create({ data: { email, name: email, role, passwordHash: "x" } }).then((u) => ({ id: u.id, email, name: email, role }));
const owner = await user("owner@bench", "RESEARCHER");
const annotator = await user("annotator@bench", "ANNOTATOR");
let key = 0;

async function labelSeed(projectId: string, truth: Int32Array, count: number) {
  for (let i = 0; i < count; i++) {
    const [task] = (await nextTasks(annotator, projectId, 1)).tasks;
    await submitLabel(annotator, projectId, { taskId: task.id, kind: "label", classIndex: truth[task.item.index], idempotencyKey: `bench-${key++}` });
  }
}
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

// (1) latency while a round trains
{
  const { projectId } = await importBundle(path.join(process.cwd(), "data", "demo"), owner.id, { name: "Latency" });
  await db().projectMember.create({ data: { projectId, userId: annotator.id, role: "ANNOTATOR" } });
  await db().project.update({ where: { id: projectId }, data: { seedSize: 50, batchSize: 200, budget: 1000, fixmatchSteps: 512 } });
  const truth = (await readNpy(path.join(process.cwd(), "data", "demo", "labels.npy"))).data as Int32Array;
  await labelSeed(projectId, truth, 50);
  const worker = spawn(process.execPath, ["--import", "tsx", "bin/worker.ts"], { env: process.env, stdio: "ignore" });
  while (!(await db().round.findFirst({ where: { projectId, status: "running" } }))) await new Promise((r) => setTimeout(r, 50));
  const next: number[] = [];
  const post: number[] = [];
  while ((await db().round.findFirst({ where: { projectId, status: "running" } })) && next.length < 400) {
    let t = performance.now();
    const { tasks } = await nextTasks(annotator, projectId, 1);
    next.push(performance.now() - t);
    if (!tasks.length) break;
    t = performance.now();
    await submitLabel(annotator, projectId, { taskId: tasks[0].id, kind: "label", classIndex: truth[tasks[0].item.index], idempotencyKey: `bench-${key++}` });
    post.push(performance.now() - t);
  }
  worker.kill("SIGTERM");
  const f = (x: number) => `${x.toFixed(1)} ms`;
  console.log(`while a round trained (demo, N=2000, 512 FixMatch steps in the worker): ${next.length} next-task calls`);
  console.log(`  GET next task: p50 ${f(percentile(next, 0.5))}, p95 ${f(percentile(next, 0.95))}`);
  console.log(`  POST label:    p50 ${f(percentile(post, 0.5))}, p95 ${f(percentile(post, 0.95))}`);
}

// (2) the round's write time at N
{
  const bundle = path.join(dataDir, "synthetic");
  fs.mkdirSync(path.join(bundle, "clusterings"), { recursive: true });
  const d = 128;
  const C = 10;
  const random = new Random(1);
  const labels = Int32Array.from({ length: n }, () => random.int(C));
  const x = new Float32Array(n * d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) x[i * d + j] = random.normal() + (j === labels[i] ? 4 : 0);
  const clustering = Int32Array.from(labels, (y) => (random.next() < 0.2 ? random.int(C) : y));
  await writeNpy(path.join(bundle, "embeddings.npy"), x, [n, d]);
  await writeNpy(path.join(bundle, "labels.npy"), labels, [n]);
  await writeNpy(path.join(bundle, "clusterings", "noisy.npy"), clustering, [n]);
  fs.writeFileSync(path.join(bundle, "manifest.json"), JSON.stringify({ name: "synthetic", N: n, D: d, class_names: Array.from({ length: C }, (_, i) => `c${i}`), clusterings: { noisy: { file: "clusterings/noisy.npy", K: C } } }));
  let t = performance.now();
  const { projectId } = await importBundle(bundle, owner.id, { name: "Write time" });
  console.log(`import of N=${n}, D=${d}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await db().projectMember.create({ data: { projectId, userId: annotator.id, role: "ANNOTATOR" } });
  await db().project.update({ where: { id: projectId }, data: { seedSize: 50, batchSize: 50, fixmatch: false, acquisition: "hardnmi" } });
  await labelSeed(projectId, labels, 50);
  t = performance.now();
  await runOneJob("bench", { deps: { createSurrogate: createKnnSurrogateFactory() } });
  const round = await db().round.findFirstOrThrow({ where: { projectId } });
  console.log(`round at N=${n} (k-NN surrogate): ${round.status}, round ${round.roundSeconds?.toFixed(2)} s, of which writing results + estimates + next batch ${round.writeSeconds?.toFixed(3)} s`);
  // the round job's result times each step (lib/server/rounds/round-steps.ts)
  const job = await db().job.findFirstOrThrow({ where: { projectId, kind: roundJob.kind } });
  const steps = jobResult(roundJob, job)?.steps;
  console.log(`  steps: ${steps ? ROUND_STEPS.flatMap((step) => (steps[step] === undefined ? [] : [`${step} ${steps[step].toFixed(3)} s`])).join(", ") : "none recorded"}`);
}

await db().$disconnect();
fs.rmSync(dataDir, { recursive: true, force: true });
