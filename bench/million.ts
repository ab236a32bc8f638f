/**
 * A round at N = 10^4 .. 10^6 through the worker's code path (issue #24), not in CI. Per N:
 * generates a bundle (D = 128 float32, 10 classes, 4 clusterings: K = 10 and 20 hard, K = 10 and
 * 20 soft), imports it with `cereal import` (a child process), labels the seed stage as an
 * annotator would (nextTasks + submitLabel), then runs round 0 in a fresh child process, the
 * worker's way: the round job's steps (rounds/round-steps.ts runRound) with the TF.js MLP
 * surrogate on the backend models/ picks and the recommended configuration (Hard NMI,
 * proportional, FixMatch, guarded estimator, 200 interval draws), then the next stage drawn with
 * drawStageIfNeeded. Prints seconds per step (predict is timed inside fit), the child's peak RSS,
 * and, when two sizes differ tenfold, the ratio per step. Then the dashboard's reads (ranking,
 * contingency, items in a cell, label overview, rounds, estimates export) through their route
 * handlers, warm p50 / p95 over --dashboard calls each (default 20; 0 skips them), and the items
 * export streamed: time to first byte and this process's RSS while it streams.
 *
 *   node --import tsx bench/million.ts                          # N = 10000,100000; 1024 steps
 *   node --import tsx bench/million.ts --n 10000,100000 --steps 64
 *   nice -n 10 node --import tsx bench/million.ts --n 100000,1000000 --steps 64
 *   node --import tsx bench/million.ts --n 100000 --steps 16 --cpu-prof DIR   # the round child's CPU profile
 *
 * Uses a throw-away data folder. Not a timed test: figures depend on the machine and its load
 * (the load average is printed with every size).
 */
import { spawn } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { writeNpyStreamed } from "@/lib/data/npy";
import { benchDataFolder } from "./bench-data-folder";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const D = 128;
const C = 10;
const SEED_SIZE = 100;
const STEPS = ["freeze", "load", "fit", "predict", "estimate", "acquire", "store", "draw"] as const;
type Step = (typeof STEPS)[number];
interface ChildReport {
  seconds: Record<Step, number>;
  /** the child's CPU seconds (user + system) per step: on shared cores the closer figure of the work */
  cpu: Record<Step, number>;
  peakRssMb: number;
  drawn: number;
}

/** Deterministic cheap noise (a 32-bit LCG): generating 10^8 normals would dominate the bench. */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
}


/** Class of row i, and its cluster in a K-clustering that agrees with the classes on ~80% of rows. */
const classOf = (i: number) => ((Math.imul(i, 2654435761) >>> 0) >>> 7) % C;
const clusterOf = (i: number, k: number, salt: number) => {
  const h = Math.imul(i ^ salt, 2246822519) >>> 0;
  return h % 5 === 0 ? (h >>> 8) % k : (classOf(i) * (k / C) + ((h >>> 4) % (k / C))) % k;
};

async function generateBundle(dir: string, n: number) {
  await mkdir(path.join(dir, "clusterings"), { recursive: true });
  const noise = lcg(7);
  const centres = Float32Array.from({ length: C * D }, () => (noise() - 0.5) * 3);
  await writeNpyStreamed(path.join(dir, "embeddings.npy"), "float32", [n, D], (first, count) => {
    const out = new Float32Array(count * D);
    for (let r = 0; r < count; r++) {
      const y = classOf(first + r);
      for (let j = 0; j < D; j++) out[r * D + j] = centres[y * D + j] + (noise() - 0.5) * 4;
    }
    return out;
  });
  await writeNpyStreamed(path.join(dir, "labels.npy"), "int32", [n], (first, count) => Int32Array.from({ length: count }, (_, r) => classOf(first + r)));
  const clusterings: Record<string, unknown> = {};
  for (const [name, k, soft] of [
    ["kmeans_k10", 10, false],
    ["kmeans_k20", 20, false],
    ["gmm_k10", 10, true],
    ["gmm_k20", 20, true],
  ] as const) {
    const salt = name.length * 7919 + k;
    await writeNpyStreamed(path.join(dir, "clusterings", `${name}.npy`), "int32", [n], (first, count) => Int32Array.from({ length: count }, (_, r) => clusterOf(first + r, k, salt)));
    if (soft) {
      // 0.7 on the hard cluster, the rest spread evenly
      await writeNpyStreamed(path.join(dir, "clusterings", `${name}_soft.npy`), "float32", [n, k], (first, count) => {
        const out = new Float32Array(count * k).fill(0.3 / (k - 1));
        for (let r = 0; r < count; r++) out[r * k + clusterOf(first + r, k, salt)] = 0.7;
        return out;
      });
    }
    clusterings[name] = { file: `clusterings/${name}.npy`, K: k, ...(soft ? { soft_file: `clusterings/${name}_soft.npy` } : {}) };
  }
  const manifest = { name: `million-${n}`, N: n, D, labels: "labels.npy", class_names: Array.from({ length: C }, (_, i) => `class ${i}`), clusterings };
  await writeFile(path.join(dir, "manifest.json"), JSON.stringify(manifest));
}

function run(args: string[], env: NodeJS.ProcessEnv, nodeFlags: string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", ...args], { env, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(" ")} exited with ${code}`))));
  });
}

/** The child: round 0 of the project the worker's way, then the next stage; prints one JSON line. */
async function childRound(projectId: string) {
  // the job module first, as the worker loads it (round-steps and round-job import each other)
  await import("@/lib/server/rounds/round-job");
  const { runRound } = await import("@/lib/server/rounds/round-steps");
  const { drawStageIfNeeded } = await import("@/lib/server/labeling/stages");
  const { createMlpSurrogate } = await import("@/models/index");
  const { db } = await import("@/lib/server/db");
  let predict = 0;
  let predictCpu = 0;
  const createSurrogate: typeof createMlpSurrogate = async (embeddings, numClasses) => {
    const inner = await createMlpSurrogate(embeddings, numClasses);
    return {
      fit: (...a) => inner.fit(...a),
      async predictProba(rows) {
        const t = performance.now();
        const c = process.cpuUsage();
        const p = await inner.predictProba(rows);
        predict += (performance.now() - t) / 1000;
        const used = process.cpuUsage(c);
        predictCpu += (used.user + used.system) / 1e6;
        return p;
      },
      predictProbaMc: (...a) => inner.predictProbaMc(...a),
      dispose: () => inner.dispose(),
    };
  };
  const outcome = await runRound({ projectId, round: 0, jobId: "bench", deps: { createSurrogate }, signal: new AbortController().signal, progress: async () => true });
  const t = performance.now();
  const c = process.cpuUsage();
  const drawn = await drawStageIfNeeded(projectId);
  const draw = (performance.now() - t) / 1000;
  const used = process.cpuUsage(c);
  const steps = outcome.steps!;
  const seconds = { ...steps, fit: steps.fit! - predict, predict, draw } as Record<Step, number>;
  const cpu = { ...outcome.cpu!, fit: outcome.cpu!.fit! - predictCpu, predict: predictCpu, draw: (used.user + used.system) / 1e6 } as Record<Step, number>;
  await db().$disconnect();
  const report: ChildReport = { seconds, cpu, peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024), drawn };
  console.log(JSON.stringify(report));
}

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

/** The dashboard's reads after the round, through their route handlers as the owner: each called once cold, then `runs` times warm; the items export streamed to its end. */
async function timeDashboard(projectId: string, ownerId: string, runs: number) {
  const { db } = await import("@/lib/server/db");
  const { requestAs, routeContext } = await import("@/lib/server/http/test-requests");
  const owner = await db().user.findUniqueOrThrow({ where: { id: ownerId } });
  type Handler = (request: Request, context: ReturnType<typeof routeContext>) => Promise<Response>;
  const get = async (handler: Handler, url: string, params: Record<string, string>) => {
    const response = await handler(await requestAs(owner, url), routeContext({ projectId, ...params }));
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
    return response;
  };
  const base = `/api/projects/${projectId}`;
  const calls: Record<string, [Handler, string, Record<string, string>]> = {
    ranking: [(await import("@/app/api/projects/[projectId]/ranking/route")).GET, `${base}/ranking?metric=nmi`, {}],
    contingency: [(await import("@/app/api/projects/[projectId]/contingency/route")).GET, `${base}/contingency?clustering=kmeans_k20`, {}],
    "items in a cell": [(await import("@/app/api/projects/[projectId]/items/route")).GET, `${base}/items?clustering=kmeans_k20&cluster=3&class=1&limit=50`, {}],
    "label overview": [(await import("@/app/api/projects/[projectId]/label-overview/route")).GET, `${base}/label-overview`, {}],
    rounds: [(await import("@/app/api/projects/[projectId]/rounds/route")).GET, `${base}/rounds`, {}],
    "estimates export": [(await import("@/app/api/projects/[projectId]/exports/[kind]/route")).GET, `${base}/exports/estimates`, { kind: "estimates" }],
  };
  const apis: Record<string, { cold: number; p50: number; p95: number; cpuP50: number; cpuP95: number }> = {};
  for (const [name, [handler, url, params]] of Object.entries(calls)) {
    const times: number[] = [];
    const cpu: number[] = [];
    for (let i = 0; i <= runs; i++) {
      const t = performance.now();
      const c = process.cpuUsage();
      await (await get(handler, url, params)).arrayBuffer();
      times.push(performance.now() - t);
      const used = process.cpuUsage(c);
      cpu.push((used.user + used.system) / 1000);
    }
    const warm = (xs: number[], p: number) => percentile(xs.slice(1), p);
    apis[name] = { cold: times[0], p50: warm(times, 0.5), p95: warm(times, 0.95), cpuP50: warm(cpu, 0.5), cpuP95: warm(cpu, 0.95) };
  }
  const exportRoute = (await import("@/app/api/projects/[projectId]/exports/[kind]/route")).GET;
  const rssBeforeMb = Math.round(process.memoryUsage().rss / 2 ** 20);
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const t = performance.now();
  const response = await get(exportRoute, `${base}/exports/items?format=csv`, { kind: "items" });
  let firstByteMs = 0;
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (bytes === 0) firstByteMs = performance.now() - t;
    bytes += chunk.byteLength;
  }
  clearInterval(timer);
  const itemsExport = { firstByteMs, seconds: (performance.now() - t) / 1000, megabytes: bytes / 2 ** 20, rssBeforeMb, peakRssMb: Math.round(peak / 2 ** 20) };
  return { apis, itemsExport };
}

async function main() {
  const sizes = arg("n", "10000,100000").split(",").map(Number);
  const steps = Number(arg("steps", "1024"));
  const profile = arg("cpu-prof", "");
  const dashboardRuns = Number(arg("dashboard", "20"));
  const { root, env } = await benchDataFolder("cereal-bench-million-");
  const { migrateDatabase } = await import("@/lib/server/migrate");
  const { serverConfig } = await import("@/lib/server/config");
  const { db } = await import("@/lib/server/db");
  const { nextTasks } = await import("@/lib/server/labeling/tasks");
  const { submitLabel } = await import("@/lib/server/labeling/labels");
  migrateDatabase(serverConfig().databasePath);
  const user = (email: string, role: "RESEARCHER" | "ANNOTATOR") =>
    db().user.create({ data: { email, name: email, role, passwordHash: "x" } }).then((u) => ({ id: u.id, email, name: email, role }));
  const owner = await user("owner@bench", "RESEARCHER");
  const annotator = await user("annotator@bench", "ANNOTATOR");
  const results: { n: number; report: ChildReport }[] = [];
  try {
    for (const n of sizes) {
      const bundle = path.join(root, `bundle-${n}`);
      let t = performance.now();
      await generateBundle(bundle, n);
      const generated = (performance.now() - t) / 1000;
      t = performance.now();
      const imported = await run(["bin/cereal.ts", "import", bundle, "--name", `million ${n}`, "--owner", owner.email], env);
      const importSeconds = (performance.now() - t) / 1000;
      const projectId = /as project (\S+)/.exec(imported)?.[1];
      if (!projectId) throw new Error(`cereal import printed no project id: ${imported}`);
      await db().projectMember.create({ data: { projectId, userId: annotator.id, role: "ANNOTATOR" } });
      await db().project.update({ where: { id: projectId }, data: { seedSize: SEED_SIZE, batchSize: SEED_SIZE, budget: 10 * SEED_SIZE, fixmatchSteps: steps, seed: 1 } });
      t = performance.now();
      for (let i = 0; i < SEED_SIZE; i++) {
        const [task] = (await nextTasks(annotator, projectId, 1)).tasks;
        if (!task) throw new Error(`no task after ${i} seed labels`);
        await submitLabel(annotator, projectId, { taskId: task.id, kind: "label", classIndex: classOf(task.item.index), idempotencyKey: `seed-${n}-${i}` });
      }
      const seedSeconds = (performance.now() - t) / 1000;
      // the seed labels drew the next (uniform) stage ahead of need: withdrawn here, so that the
      // stage drawn after the round is drawn with the round's ranking, as when a round finishes first
      await db().batch.deleteMany({ where: { projectId, tasks: { none: { done: true } } } });
      const report = JSON.parse((await run(["bench/million.ts", "--child-round", projectId], env, profile ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profile)}`] : [])).trim().split("\n").at(-1)!) as ChildReport;
      results.push({ n, report });
      const dashboard = dashboardRuns > 0 ? await timeDashboard(projectId, owner.id, dashboardRuns) : null;
      const load = os.loadavg().map((x) => x.toFixed(1)).join(" ");
      console.log(`N=${n} D=${D} C=${C}, 4 clusterings, ${steps} FixMatch steps (load average ${load} on ${os.cpus().length} cores)`);
      console.log(`  generate ${generated.toFixed(1)} s, cereal import ${importSeconds.toFixed(1)} s, ${SEED_SIZE} seed labels ${seedSeconds.toFixed(1)} s`);
      console.log(`  round, wall (CPU) seconds: ${STEPS.map((s) => `${s} ${report.seconds[s].toFixed(2)} (${report.cpu[s].toFixed(2)})`).join(", ")}; stage drawn: ${report.drawn} tasks`);
      console.log(`  worker peak RSS ${report.peakRssMb} MB`);
      if (dashboard) {
        console.log(`  dashboard APIs, warm (${dashboardRuns} calls each after one cold call): wall p50 / p95, CPU p50 / p95, cold wall:`);
        for (const [name, f] of Object.entries(dashboard.apis))
          console.log(`    ${name.padEnd(28)} ${f.p50.toFixed(0)} / ${f.p95.toFixed(0)} ms, CPU ${f.cpuP50.toFixed(0)} / ${f.cpuP95.toFixed(0)} ms, cold ${f.cold.toFixed(0)} ms`);
        const e = dashboard.itemsExport;
        console.log(`    items export (csv, streamed) first byte ${e.firstByteMs.toFixed(0)} ms, ${e.megabytes.toFixed(1)} MB in ${e.seconds.toFixed(1)} s, RSS ${e.rssBeforeMb} MB before, ${e.peakRssMb} MB peak`);
      }
      console.log(JSON.stringify({ n, steps, load: os.loadavg()[0], ...report, dashboard }));
      await rm(bundle, { recursive: true, force: true });
    }
    for (const big of results) {
      const small = results.find((r) => r.n * 10 === big.n);
      if (!small) continue;
      const ratio = (of: "seconds" | "cpu") => STEPS.map((s) => `${s} ${(big.report[of][s] / small.report[of][s]).toFixed(1)}`).join(", ");
      console.log(`ratio N=${big.n} / N=${small.n} per step, wall: ${ratio("seconds")}`);
      console.log(`ratio N=${big.n} / N=${small.n} per step, CPU:  ${ratio("cpu")}`);
    }
  } finally {
    await db().$disconnect();
    await rm(root, { recursive: true, force: true });
  }
}

if (process.argv.includes("--child-round")) await childRound(arg("child-round", ""));
else await main();
