/**
 * A team labeling at once against a started instance (issue #18); not run in CI.
 *   node --import tsx bench/team.ts [--annotators 30] [--seconds 120] [--kill-at 60] [--max-requests 2000]
 *     [--n 20000] [--d 64] [--classes 10] [--budget 20000] [--batch-size B] [--seed-size S] [--cpu-prof DIR] [--keep] [--in-step]
 *     [--client page|single] [--request-log]
 * 1. generates a bundle of n items (Gaussian classes, k-means k = 10: bench/overlap-bundle.ts) and
 *    starts `npm start` (bin/start.ts; it builds Next only when the build is stale) on a free port
 *    with its own data folder and database in a temp folder;
 * 2. imports the bundle with the CLI (`cereal import`), sets 1,024-step FixMatch rounds (the
 *    recommended trainer) and the budget over HTTP as the admin, creates the annotator accounts and
 *    adds them to the project;
 * 3. runs one bot per annotator over loopback: it keeps the project's event stream open (as the
 *    label page does), starts at a random point of one think time (--in-step: all at once) and
 *    loops next task -> think 2 +- 1 s -> answer with the reference class and an idempotency key
 *    (10% of answers sent twice with the same key). `--client page` (the default) holds tasks as
 *    the label page does (use-labeling-session.ts: asks for 5 when it holds fewer than 3; the
 *    server lists the held ones first); `--client single` asks for one task before every answer.
 *    A bot left with no task asks again after 0.5 s (counted as a next-task call without a task);
 *    bounded by --seconds and --max-requests per bot. Meanwhile GET /api/health (no database, no
 *    session) every 100 ms shows how long the web process's event loop stalls;
 * 4. at --kill-at seconds (once a round is running) SIGKILLs the worker (the start process's child)
 *    and times until that round job runs again;
 * 5. prints labels per second, the share of next-task calls without a task while budget remained,
 *    next-task and label POST p50/p95/p99 (client side, loopback), the web process's CPU seconds
 *    while the bots ran and per call (Linux /proc; it depends far less than latency on what else
 *    the machine runs), rounds run, worker kill -> round running again, and lost / duplicated
 *    labels from the labels export; then SIGTERMs the instance and says whether both processes
 *    stopped.
 * --cpu-prof DIR writes a V8 CPU profile of the web process (not the worker) into DIR.
 * --request-log keeps the instance's request log (one JSON line per API call, which costs the web
 * process some CPU) and prints the handlers' own time per route beside the client's, so a slow
 * call splits into the handler and the wait before it (the event loop's queue, Next, HTTP).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../bin/free-port.ts";
import { cpuSeconds } from "./process-cpu.ts";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    annotators: { type: "string", default: "30" },
    seconds: { type: "string", default: "120" },
    "kill-at": { type: "string" },
    "max-requests": { type: "string", default: "2000" },
    n: { type: "string", default: "20000" },
    d: { type: "string", default: "64" },
    classes: { type: "string", default: "10" },
    budget: { type: "string", default: "20000" },
    "batch-size": { type: "string" },
    "seed-size": { type: "string" },
    "cpu-prof": { type: "string" },
    keep: { type: "boolean", default: false },
    "in-step": { type: "boolean", default: false },
    client: { type: "string", default: "page" },
    "request-log": { type: "boolean", default: false },
  },
});
const annotators = Number(values.annotators);
const seconds = Number(values.seconds);
const killAt = values["kill-at"] === undefined ? null : Number(values["kill-at"]);
const maxRequests = Number(values["max-requests"]);
const inStep = values["in-step"];
const client = values.client;
if (client !== "page" && client !== "single") throw new Error(`--client must be page (hold tasks as the label page does) or single (one next-task call per answer), got ${client}.`);
/** the label page (use-labeling-session.ts) holds TARGET tasks and asks for more below LOW_WATER */
const PAGE_TARGET = 5;
const PAGE_LOW_WATER = 3;
/** an annotator's think time between a task shown and its answer: uniform in [1, 3] s */
const THINK_MIN_MS = 1000;
const THINK_MAX_MS = 3000;
for (const [name, value] of Object.entries({ annotators, seconds, "max-requests": maxRequests })) {
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive whole number (got ${value}).`);
}
if (killAt !== null && !(killAt >= 0 && killAt < seconds)) throw new Error(`--kill-at must be a time in seconds inside --seconds (got ${killAt}).`);

const root = process.cwd();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-team-"));
const dataDir = path.join(tmp, "data");
const bundle = path.join(tmp, "bundle");
const port = await freePort();
const base = `http://localhost:${port}`;
const admin = { email: "bench-admin@cereal.local", password: "bench-admin-password" };
const env = {
  ...process.env,
  PORT: String(port),
  CEREAL_DATA_DIR: dataDir,
  DATABASE_URL: `file:${path.join(dataDir, "cereal.db")}`,
  NEXTAUTH_URL: base,
  NEXTAUTH_SECRET: "",
  CEREAL_ADMIN_EMAIL: admin.email,
  CEREAL_ADMIN_PASSWORD: admin.password,
  // request log lines of every call would drown the figures; warnings and the supervisor's lines stay
  CEREAL_LOG_LEVEL: values["request-log"] ? "info" : "warn",
};
Object.assign(process.env, { CEREAL_DATA_DIR: env.CEREAL_DATA_DIR, DATABASE_URL: env.DATABASE_URL });
const log = (line: string) => console.log(`[team] ${line}`);

// 1. the bundle and the instance
const tsx = (args: string[]) => {
  const run = spawnSync(process.execPath, ["--import", "tsx", ...args], { env, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`${args.join(" ")} failed:\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
};
log(tsx(["bench/overlap-bundle.ts", bundle, "--n", values.n!, "--d", values.d!, "--classes", values.classes!, "--spread", "0.6"]).trim());
const { readNpy } = await import("../lib/data/npy.ts");
const labels = (await readNpy(path.join(bundle, "labels.npy"))).data as Int32Array;

const profile = values["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(values["cpu-prof"])}`] : [];
const server: ChildProcess = spawn(process.execPath, [...profile, "--import", "tsx", "bin/start.ts"], { env, stdio: ["ignore", "pipe", "pipe"], cwd: root });
const serverLog = fs.createWriteStream(path.join(tmp, "server.log"));
const serverLines: string[] = [];
/** the handler's milliseconds per route pattern, from the request log (--request-log) */
const handlerMs = new Map<string, number[]>();
let partialLine = "";
for (const stream of [server.stdout!, server.stderr!]) {
  stream.on("data", (chunk: Buffer) => {
    serverLog.write(chunk);
    const lines = (partialLine + chunk.toString()).split("\n");
    partialLine = lines.pop() ?? "";
    for (const line of lines) {
      if (/\[start\]|"level":(40|50|60)|Warning|Error/.test(line)) serverLines.push(line);
      if (line.includes('"msg":"request"')) {
        const entry = JSON.parse(line) as { method: string; route: string; ms: number };
        const key = `${entry.method} ${entry.route}`;
        (handlerMs.get(key) ?? handlerMs.set(key, []).get(key)!).push(entry.ms);
      }
    }
  });
}
// a bench that fails leaves no instance behind
process.once("exit", () => server.exitCode === null && server.kill("SIGTERM"));
const serverExit = new Promise<number | string>((resolve) => server.once("exit", (code, signal) => resolve(signal ?? code ?? -1)));
for (let ready = false; !ready; ) {
  if (server.exitCode !== null) throw new Error(`the instance exited early; its log: ${path.join(tmp, "server.log")}`);
  ready = await fetch(`${base}/api/health`).then((r) => r.ok, () => false);
  if (!ready) await new Promise((r) => setTimeout(r, 500));
}
log(`instance up on ${base} (data ${dataDir})`);

const { db } = await import("../lib/server/db.ts");
const imported = tsx(["bin/cereal.ts", "import", bundle, "--name", "Team bench", "--owner", admin.email]);
const projectId = /as project (\S+)/.exec(imported)?.[1];
if (!projectId) throw new Error(`no project id in the import's output:\n${imported}`);

/**
 * fetch, sent once more when the connection broke before any answer: a kept-alive connection the
 * server closed as it was reused (every call here is safe to repeat; answers carry idempotency keys).
 */
async function request(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (!/UND_ERR_SOCKET|ECONNRESET|other side closed/.test(String((error as { cause?: unknown }).cause ?? error))) throw error;
    return fetch(url, init);
  }
}

// 2. sessions, settings, accounts
interface Session {
  cookie: string;
}
async function signIn(email: string, password: string): Promise<Session> {
  const csrf = await request(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const csrfCookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const response = await request(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie, origin: base },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  const session = response.headers.getSetCookie().find((c) => c.includes("next-auth.session-token="));
  if (!session) throw new Error(`signing in as ${email} failed (${response.status})`);
  return { cookie: session.split(";")[0] };
}
const failedRequests: string[] = [];
async function call(session: Session, method: string, url: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown>; ms: number }> {
  const t = performance.now();
  try {
    const response = await request(`${base}${url}`, {
      method,
      headers: { cookie: session.cookie, origin: base, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: text.startsWith("{") ? JSON.parse(text) : {}, ms: performance.now() - t };
  } catch (error) {
    failedRequests.push(`${method} ${url.split("?")[0]}: ${String((error as { cause?: unknown }).cause ?? error)}`);
    return { status: 0, json: {}, ms: performance.now() - t };
  }
}
const must = async (what: string, result: Promise<{ status: number; json: Record<string, unknown> }>) => {
  const r = await result;
  if (r.status >= 300) throw new Error(`${what}: HTTP ${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
};
const owner = await signIn(admin.email, admin.password);
const settings = {
  fixmatch: true,
  fixmatchSteps: 1024,
  budget: Number(values.budget),
  ...(values["batch-size"] ? { batchSize: Number(values["batch-size"]) } : {}),
  ...(values["seed-size"] ? { seedSize: Number(values["seed-size"]) } : {}),
};
const applied = ((await must("settings", call(owner, "PATCH", `/api/projects/${projectId}/settings`, settings))).settings ?? {}) as Record<string, unknown>;
log(`project ${projectId}: seed ${applied.seedSize}, batches of ${applied.batchSize}, budget ${applied.budget}, ${applied.fixmatch ? `FixMatch ${applied.fixmatchSteps} steps` : "supervised"}, overlap ${applied.overlap}`);
const password = "bench-annotator-password";
const emails = Array.from({ length: annotators }, (_, i) => `bot${i}@bench.local`);
for (const email of emails) {
  await must(`create ${email}`, call(owner, "POST", "/api/admin/users", { email, name: email, password, role: "ANNOTATOR" }));
  await must(`add ${email}`, call(owner, "POST", `/api/projects/${projectId}/members`, { email, role: "ANNOTATOR" }));
}
const sessions = await Promise.all(emails.map((email) => signIn(email, password)));
log(`${annotators} annotators signed in; labeling for ${seconds} s`);

// 3. the bots
const nextMs: number[] = [];
const labelMs: number[] = [];
let nextCalls = 0;
let noTaskWithBudget = 0;
let budgetReached = false;
const accepted = new Map<string, string>(); // label id -> "email|item"
let duplicateAnswers = 0;
let refused = 0;
const loadAtStart = os.loadavg()[0];
const webCpuAtStart = cpuSeconds(server.pid);
const benchCpuAtStart = process.cpuUsage();
const started = Date.now();
const deadline = started + seconds * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const streamsOpen = new AbortController();
let streamEvents = 0;
async function watch(session: Session) {
  const response = await fetch(`${base}/api/projects/${projectId}/events`, { headers: { cookie: session.cookie }, signal: streamsOpen.signal }).catch(() => null);
  const reader = response?.body?.getReader();
  if (!reader) return;
  const decoder = new TextDecoder();
  for (;;) {
    const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (chunk.done) return;
    streamEvents += (decoder.decode(chunk.value, { stream: true }).match(/event: snapshot/g) ?? []).length;
  }
}
const healthMs: number[] = [];
async function probeHealth() {
  while (Date.now() < deadline && !budgetReached) {
    const t = performance.now();
    const ok = await request(`${base}/api/health`).then((r) => r.text().then(() => true), () => false);
    if (ok) healthMs.push(performance.now() - t);
    else failedRequests.push("GET /api/health: no answer");
    await sleep(100);
  }
}

async function bot(i: number) {
  const session = sessions[i];
  // a team's annotators are not in step: each bot opens its label page at a random point of one
  // think time (--in-step: all at once, every stream and first call in the same millisecond)
  if (!inStep) await sleep(Math.random() * THINK_MAX_MS);
  void watch(session);
  // the tasks this bot holds, as the label page keeps them (--client page) or one at a time (--client single)
  let queue: { id: string; item: { index: number } }[] = [];
  const answered = new Set<string>();
  for (let requests = 0; Date.now() < deadline && requests < maxRequests && !budgetReached; ) {
    if (queue.length < (client === "page" ? PAGE_LOW_WATER : 1)) {
      const next = await call(session, "POST", `/api/projects/${projectId}/tasks/next?count=${client === "page" ? PAGE_TARGET : 1}`);
      requests++;
      if (next.status !== 200) {
        if (next.status !== 0) failedRequests.push(`next task: HTTP ${next.status} ${JSON.stringify(next.json)}`);
        await sleep(500);
        continue;
      }
      nextCalls++;
      nextMs.push(next.ms);
      // the server lists the bot's still-leased tasks first, then new ones
      queue = ((next.json.tasks ?? []) as { id: string; item: { index: number } }[]).filter((t) => !answered.has(t.id));
      if (!queue.length) {
        if (next.json.state === "budget_reached") budgetReached = true;
        else noTaskWithBudget++;
        await sleep(500);
        continue;
      }
    }
    await sleep(THINK_MIN_MS + Math.random() * (THINK_MAX_MS - THINK_MIN_MS));
    const task = queue.shift()!;
    answered.add(task.id);
    const body = { taskId: task.id, kind: "label", classIndex: labels[task.item.index], idempotencyKey: randomUUID() };
    for (let send = 0; send < (Math.random() < 0.1 ? 2 : 1); send++) {
      const answer = await call(session, "POST", `/api/projects/${projectId}/labels`, body);
      requests++;
      labelMs.push(answer.ms);
      if (answer.status !== 200) {
        if (answer.status !== 0) failedRequests.push(`label: HTTP ${answer.status} ${JSON.stringify(answer.json)}`);
        refused++;
        break;
      }
      const label = answer.json.label as { id: string };
      if (answer.json.duplicate) duplicateAnswers++;
      else accepted.set(label.id, `${emails[i]}|${task.item.index}`);
    }
  }
}

// 4. the worker kill
type Kill = { seconds: number; releasedAfter: number | null; status: string } | { note: string };
async function killWorkerDuringARound(): Promise<Kill | null> {
  if (killAt === null) return null;
  await sleep(killAt * 1000);
  let job = null;
  while (Date.now() < deadline && !(job = await db().job.findFirst({ where: { projectId, kind: "round", status: "running" } }))) await sleep(200);
  if (!job) return { note: "no round ran after --kill-at; nothing killed" };
  const children = spawnSync("ps", ["-o", "pid=,args=", "--ppid", String(server.pid)], { encoding: "utf8" }).stdout.trim().split("\n");
  const worker = children.find((line) => line.includes("bin/worker.ts") && line.includes("--lane rounds"));
  if (!worker) return { note: "no worker process found under the instance" };
  const pid = Number(worker.trim().split(/\s+/)[0]);
  const killedAt = Date.now();
  process.kill(pid, "SIGKILL");
  log(`SIGKILLed the worker (pid ${pid}) at ${((killedAt - started) / 1000).toFixed(1)} s while it ran round job ${job.id}`);
  for (;;) {
    const now = await db().job.findUniqueOrThrow({ where: { id: job.id } });
    if ((now.status === "running" && now.leaseOwner !== job.leaseOwner) || now.status === "done") {
      return { seconds: (Date.now() - killedAt) / 1000, releasedAfter: now.releasedAt ? (now.releasedAt.getTime() - killedAt) / 1000 : null, status: now.status };
    }
    if (Date.now() > killedAt + 120_000) return { note: `round job still ${now.status} 120 s after the kill` };
    await sleep(50);
  }
}

// the web process's CPU while the bots ran: it reads the same on a busy machine as on an idle one
let webCpu = null as { seconds: number; wallSeconds: number } | null;
let benchCpuSeconds = 0;
const bots = Promise.all(sessions.map((_, i) => bot(i))).then(() => {
  const now = cpuSeconds(server.pid);
  if (now !== null && webCpuAtStart !== null) webCpu = { seconds: now - webCpuAtStart, wallSeconds: (Date.now() - started) / 1000 };
  const bench = process.cpuUsage(benchCpuAtStart);
  benchCpuSeconds = (bench.user + bench.system) / 1e6;
});
const [kill] = await Promise.all([killWorkerDuringARound(), probeHealth(), bots]);
const elapsed = (Date.now() - started) / 1000;
streamsOpen.abort();

// 5. what the export says, then stop the instance
const exported = await request(`${base}/api/projects/${projectId}/exports/labels?format=jsonl`, { headers: { cookie: owner.cookie } }).then((r) => r.text());
const rows = exported
  .split("\n")
  .filter(Boolean)
  .map((line) => JSON.parse(line) as { item_index: number; annotator: string; kind: string });
const exportedKeys = rows.map((r) => `${r.annotator}|${r.item_index}`);
const exportedCounts = new Map<string, number>();
for (const key of exportedKeys) exportedCounts.set(key, (exportedCounts.get(key) ?? 0) + 1);
const acceptedKeys = new Set(accepted.values());
const lost = [...acceptedKeys].filter((key) => !exportedCounts.has(key)).length;
const duplicated = [...exportedCounts.values()].reduce((sum, count) => sum + count - 1, 0) + exportedKeys.filter((key) => !acceptedKeys.has(key)).length;
const overlap = Number(applied.overlap ?? 1);
const annotatorsPerItem = new Map<number, Set<string>>();
for (const r of rows) (annotatorsPerItem.get(r.item_index) ?? annotatorsPerItem.set(r.item_index, new Set()).get(r.item_index)!).add(r.annotator);
const overOverlap = [...annotatorsPerItem.values()].filter((set) => set.size > overlap).length;
const rounds = await db().round.count({ where: { projectId, status: "done" } });
const roundSteps = await db().round.findMany({ where: { projectId, status: "done" }, select: { index: true, nLabels: true, roundSeconds: true } });

const stopAsked = Date.now();
server.kill("SIGTERM");
const exitedWith = await Promise.race([serverExit, sleep(30_000).then(() => "still running 30 s after SIGTERM")]);
const leftovers = spawnSync("ps", ["-o", "pid=,args=", "--ppid", String(server.pid)], { encoding: "utf8" }).stdout.trim();

const pct = (xs: number[], p: number) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] : NaN);
const ms = (xs: number[]) => `p50 ${pct(xs, 0.5).toFixed(0)} ms / p95 ${pct(xs, 0.95).toFixed(0)} ms / p99 ${pct(xs, 0.99).toFixed(0)} ms (${xs.length} calls)`;
console.log(`\n== bench/team.ts: ${annotators} annotators (${client === "page" ? "holding tasks as the label page does" : "one next-task call per answer"}), ${elapsed.toFixed(0)} s, N=${values.n} D=${values.d} classes=${values.classes}, rounds of ${applied.fixmatchSteps} FixMatch steps, batches of ${applied.batchSize}`);
console.log(`machine:                   ${os.cpus().length} cores, load average ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end (1 min)`);
console.log(`labels accepted:           ${accepted.size} (${(accepted.size / elapsed).toFixed(2)} labels/s); answers sent twice: ${duplicateAnswers} recognised as duplicates; refused answers: ${refused}`);
console.log(`next task without a task:  ${noTaskWithBudget} of ${nextCalls} calls (${((100 * noTaskWithBudget) / Math.max(1, nextCalls)).toFixed(1)}%) while budget remained${budgetReached ? "; the budget was reached" : ""}`);
console.log(`next task:                 ${ms(nextMs)}`);
console.log(`label POST:                ${ms(labelMs)}`);
console.log(`GET /api/health (no db):   ${ms(healthMs)}, max ${Math.max(...healthMs).toFixed(0)} ms: the web process's event loop stalls`);
const webCalls = nextMs.length + labelMs.length + healthMs.length;
const cpu = webCpu;
console.log(`web process CPU:           ${cpu ? `${cpu.seconds.toFixed(1)} s in ${cpu.wallSeconds.toFixed(0)} s (${((100 * cpu.seconds) / cpu.wallSeconds).toFixed(0)}% of a core), ${((1000 * cpu.seconds) / Math.max(1, webCalls)).toFixed(1)} ms per call (${webCalls} next task, label and health calls; the streams' pushes included)` : "not measured (no /proc)"}`);
console.log(`bench process CPU:         ${benchCpuSeconds.toFixed(1)} s (the ${annotators} bots and their event streams share the machine's cores with the instance)`);
if (values["request-log"]) {
  for (const [key, xs] of [...handlerMs].sort((a, b) => b[1].length - a[1].length)) {
    if (xs.length >= 100) console.log(`handler ${key}: ${ms(xs)} (the request log's time from the handler's start to its answer)`);
  }
}
console.log(`failed requests:           ${failedRequests.length}${failedRequests.length ? ` (${[...new Set(failedRequests)].slice(0, 3).join("; ")})` : ""}`);
console.log(`event streams:             ${annotators} open, ${streamEvents} snapshots pushed`);
console.log(`rounds run:                ${rounds} (${roundSteps.map((r) => `#${r.index} on ${r.nLabels} labels${r.roundSeconds === null ? "" : ` in ${r.roundSeconds.toFixed(0)} s`}`).join(", ")})`);
console.log(
  `worker kill -> round again: ${
    kill === null ? "not asked (--kill-at)" : "seconds" in kill ? `${kill.seconds.toFixed(2)} s (job ${kill.status}; handed back ${kill.releasedAfter?.toFixed(2) ?? "?"} s after the kill)` : kill.note
  }`,
);
console.log(`labels export:             ${rows.length} rows; lost ${lost}, duplicated ${duplicated}; items with more annotators than the overlap (${overlap}): ${overOverlap}`);
console.log(`SIGTERM -> stopped:        ${typeof exitedWith === "number" ? `exit ${exitedWith} after ${((Date.now() - stopAsked) / 1000).toFixed(1)} s` : exitedWith}; processes left under it: ${leftovers ? leftovers : "none"}`);
const notable = serverLines.filter((line) => !/serving http|data folder|first start|change the password|building the app|migrat/.test(line));
if (notable.length) console.log(`instance lines worth a look:\n  ${notable.slice(0, 20).join("\n  ")}`);
await db().$disconnect();
if (values.keep) log(`kept ${tmp}`);
else fs.rmSync(tmp, { recursive: true, force: true });
