/**
 * How long a cancel takes to stop a round's fit (issue #18, item 6), with the real TF.js trainer
 * in a real worker process (bin/worker.ts):
 *   node --import tsx bench/cancel-latency.ts [--bundle data/demo] [--cancels 3] [--steps 1024]
 * Imports the bundle into a throw-away data folder, labels the seed batch with the reference
 * classes, and for each cancel: waits until the round's fit is past step 64, cancels the job as
 * the owner's Cancel button does (cancelJob), and times until the worker logs that the attempt
 * ended; then retries the round for the next cancel. Also prints the fit's time per step.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { parseArgs } from "node:util";
import { mean } from "./sample-stats";

const { values } = parseArgs({ args: process.argv.slice(2), options: { bundle: { type: "string", default: "data/demo" }, cancels: { type: "string", default: "3" }, steps: { type: "string", default: "1024" } } });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-cancel-"));
process.env.CEREAL_DATA_DIR = tmp;
process.env.NEXTAUTH_SECRET = "cancel-latency";
process.env.CEREAL_LOG_LEVEL = "silent";

const { migrateDatabase } = await import("../lib/server/migrate.ts");
const { serverConfig } = await import("../lib/server/config.ts");
migrateDatabase(serverConfig().databasePath);
const { db } = await import("../lib/server/db.ts");
const { importBundle } = await import("../lib/server/imports/imports.ts");
const { nextTasks } = await import("../lib/server/labeling/tasks.ts");
const { submitLabel } = await import("../lib/server/labeling/labels.ts");
const { cancelJob, retryJob } = await import("../lib/server/jobs/queue.ts");
const { roundProgress } = await import("../lib/server/rounds/round-progress.ts");
const { readNpy } = await import("../lib/data/npy.ts");

const bundle = path.resolve(values.bundle!);
const user = async (email: string, role: "RESEARCHER" | "ANNOTATOR") => db().user.create({ data: { email, name: email, role, passwordHash: "x" } }).then((u) => ({ id: u.id, email, name: email, role }));
const owner = await user("owner@cancel", "RESEARCHER");
const annotator = await user("annotator@cancel", "ANNOTATOR");
const { projectId } = await importBundle(bundle, owner.id, { name: "Cancel latency" });
await db().projectMember.create({ data: { projectId, userId: annotator.id, role: "ANNOTATOR" } });
await db().project.update({ where: { id: projectId }, data: { fixmatch: true, fixmatchSteps: Number(values.steps), budget: 100_000 } });
const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
const truth = (await readNpy(path.join(bundle, "labels.npy"))).data as Int32Array;
for (let i = 0; i < project.seedSize; i++) {
  const [task] = (await nextTasks(annotator, projectId, 1)).tasks;
  await submitLabel(annotator, projectId, { taskId: task.id, kind: "label", classIndex: truth[task.item.index], idempotencyKey: `cancel-${i}-key` });
}
const job = await db().job.findFirstOrThrow({ where: { projectId, kind: "round" } });

const worker = spawn(process.execPath, ["--import", "tsx", "bin/worker.ts"], { env: { ...process.env, CEREAL_LOG_LEVEL: "info" }, stdio: ["ignore", "pipe", "inherit"] });
const ended: ((line: { outcome: string; error?: string }) => void)[] = [];
readline.createInterface({ input: worker.stdout! }).on("line", (text) => {
  if (!text.startsWith("{")) return;
  const line = JSON.parse(text) as { msg?: string; jobId?: string; outcome?: string; error?: string };
  if (line.msg === "job" && line.jobId === job.id) ended.shift()?.(line as { outcome: string; error?: string });
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const step = async () => roundProgress.safeParse((await db().job.findUniqueOrThrow({ where: { id: job.id } })).progress).data?.step ?? 0;

const latencies: number[] = [];
const stepMs: number[] = [];
for (let c = 0; c < Number(values.cancels); c++) {
  const attemptEnded = new Promise<{ outcome: string; error?: string }>((resolve) => ended.push(resolve));
  while ((await step()) < 32) await sleep(20);
  // the fit's pace, from two progress reports
  const [s0, t0] = [await step(), performance.now()];
  while ((await step()) < s0 + 32) await sleep(5);
  stepMs.push((performance.now() - t0) / ((await step()) - s0));
  const cancelled = performance.now();
  await cancelJob(job.id);
  const line = await attemptEnded;
  latencies.push(performance.now() - cancelled);
  console.log(`cancel ${c + 1}: the attempt ended ${(latencies.at(-1)! / 1000).toFixed(2)} s after the cancel (at step ~${await step()}; "${line.error ?? line.outcome}")`);
  await db().job.update({ where: { id: job.id }, data: { progress: { phase: "queued" } } });
  await retryJob(job.id);
}
worker.kill("SIGTERM");
console.log(`\n${path.basename(bundle)} (N=${project.n}, D=${project.d}), FixMatch ${values.steps} steps: ${mean(stepMs).toFixed(1)} ms per training step`);
console.log(`cancel -> fit stopped: mean ${(mean(latencies) / 1000).toFixed(2)} s, max ${(Math.max(...latencies) / 1000).toFixed(2)} s over ${latencies.length} cancels`);
await db().$disconnect();
fs.rmSync(tmp, { recursive: true, force: true });
