/**
 * Where one next-task call and one label POST spend their time, without load (issue #18, item 5):
 *   node --import tsx bench/request-profile.ts [--n 20000] [--annotators 30] [--labeled 300]
 * Imports a generated n-item bundle (bench/overlap-bundle.ts) into a throw-away data folder, labels
 * --labeled items with rounds run by the fast k-NN worker between batches, then has each of
 * --annotators annotators take a task and answer it, in turn, and prints per call kind: wall time,
 * queries, time inside SQL (Prisma's query events) and the slowest query shapes; and the per-request
 * session cost (next-auth JWT decode, the user lookup).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { mean } from "./sample-stats";

const { values } = parseArgs({ args: process.argv.slice(2), options: { n: { type: "string", default: "20000" }, annotators: { type: "string", default: "30" }, labeled: { type: "string", default: "300" } } });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-profile-"));
process.env.CEREAL_DATA_DIR = path.join(tmp, "data");
process.env.NEXTAUTH_SECRET = "request-profile";
process.env.CEREAL_LOG_LEVEL = "silent";
const bundle = path.join(tmp, "bundle");
const generated = spawnSync(process.execPath, ["--import", "tsx", "bench/overlap-bundle.ts", bundle, "--n", values.n!, "--d", "64", "--classes", "10", "--spread", "0.6"], { encoding: "utf8" });
if (generated.status !== 0) throw new Error(generated.stderr);

const { migrateDatabase } = await import("../lib/server/migrate.ts");
const { serverConfig } = await import("../lib/server/config.ts");
migrateDatabase(serverConfig().databasePath);
// the one client of this process (lib/server/db.ts), with query events on
const { PrismaBetterSqlite3 } = await import("@prisma/adapter-better-sqlite3");
const { PrismaClient } = await import("../lib/generated/prisma/client.ts");
const client = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: `file:${serverConfig().databasePath}`, timeout: 10_000 }), log: [{ emit: "event", level: "query" }] });
Object.assign(globalThis, { cerealDb: client, cerealDbKey: serverConfig().databasePath });
const queries: { sql: string; ms: number }[] = [];
client.$on("query", (e) => queries.push({ sql: e.query, ms: Number(e.duration) }));

const { db } = await import("../lib/server/db.ts");
const { importBundle } = await import("../lib/server/imports/imports.ts");
const { nextTasks } = await import("../lib/server/labeling/tasks.ts");
const { submitLabel } = await import("../lib/server/labeling/labels.ts");
const { runOneJob } = await import("../lib/server/jobs/worker-loop.ts");
const { userFromSessionToken } = await import("../lib/server/auth/session.ts");
const { encode } = await import("next-auth/jwt");
const { createKnnSurrogateFactory } = await import("../lib/cereal/fakes/knn-surrogate.ts");
const { readNpy } = await import("../lib/data/npy.ts");

const truth = (await readNpy(path.join(bundle, "labels.npy"))).data as Int32Array;
const user = async (email: string, role: "RESEARCHER" | "ANNOTATOR") => db().user.create({ data: { email, name: email, role, passwordHash: "x" } }).then((u) => ({ id: u.id, email, name: email, role }));
const owner = await user("owner@profile", "RESEARCHER");
const { projectId } = await importBundle(bundle, owner.id, { name: "Profile" });
const team = await Promise.all(Array.from({ length: Number(values.annotators) }, (_, i) => user(`a${i}@profile`, "ANNOTATOR")));
await db().projectMember.createMany({ data: team.map((a) => ({ projectId, userId: a.id, role: "ANNOTATOR" as const })) });
await db().project.update({ where: { id: projectId }, data: { budget: 100_000, fixmatch: false } });
const deps = { createSurrogate: createKnnSurrogateFactory() };
let key = 0;

type Kind = "next (task)" | "next (none)" | "label";
const calls: Record<Kind, { ms: number[]; queries: number[]; sqlMs: number[]; shapes: Map<string, number> }> = {
  "next (task)": { ms: [], queries: [], sqlMs: [], shapes: new Map() },
  "next (none)": { ms: [], queries: [], sqlMs: [], shapes: new Map() },
  label: { ms: [], queries: [], sqlMs: [], shapes: new Map() },
};
async function timed<T>(work: () => Promise<T>, kind: (value: T) => Kind): Promise<T> {
  queries.length = 0;
  const t = performance.now();
  const value = await work();
  const ms = performance.now() - t;
  const c = calls[kind(value)];
  c.ms.push(ms);
  c.queries.push(queries.length);
  c.sqlMs.push(queries.reduce((s, q) => s + q.ms, 0));
  for (const q of queries) {
    const shape = q.sql.replace(/`main`\./g, "").replace(/\s+/g, " ").slice(0, 110);
    c.shapes.set(shape, (c.shapes.get(shape) ?? 0) + q.ms);
  }
  return value;
}

// fill the project: each annotator takes a task and answers it, in turn; rounds run when queued
const target = Number(values.labeled);
for (let labeled = 0; labeled < target; ) {
  let progressed = false;
  for (const a of team) {
    const { tasks } = await timed(() => nextTasks(a, projectId, 1), (r) => (r.tasks.length ? "next (task)" : "next (none)"));
    if (!tasks.length) continue;
    await timed(
      () => submitLabel(a, projectId, { taskId: tasks[0].id, kind: "label", classIndex: truth[tasks[0].item.index], idempotencyKey: `profile-${key++}` }),
      () => "label",
    );
    labeled++;
    progressed = true;
  }
  if (!progressed || (await db().job.count({ where: { status: "queued" } }))) await runOneJob("profile-worker", { deps });
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
console.log(`N=${values.n}, ${team.length} annotators, ${target} labels, no concurrency (service time only)`);
for (const [kind, c] of Object.entries(calls)) {
  if (!c.ms.length) continue;
  console.log(`\n${kind}: ${c.ms.length} calls; wall p50 ${pct(c.ms, 0.5).toFixed(1)} ms, p95 ${pct(c.ms, 0.95).toFixed(1)} ms; ${mean(c.queries).toFixed(1)} queries per call; inside SQL ${mean(c.sqlMs).toFixed(1)} ms per call (the rest: Prisma, app code, files)`);
  const slow = [...c.shapes.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5);
  for (const [shape, ms] of slow) console.log(`  ${(ms / c.ms.length).toFixed(2)} ms/call  ${shape}`);
}

// the session work every request does before its handler
const token = await encode({ token: { uid: team[0].id, sv: 0 }, secret: process.env.NEXTAUTH_SECRET! });
const { decode } = await import("next-auth/jwt");
const rounds = 300;
let t = performance.now();
for (let i = 0; i < rounds; i++) await decode({ token, secret: process.env.NEXTAUTH_SECRET! });
const decodeMs = (performance.now() - t) / rounds;
t = performance.now();
for (let i = 0; i < rounds; i++) await userFromSessionToken(token);
const sessionMs = (performance.now() - t) / rounds;
console.log(`\nsession per request: JWT decode ${decodeMs.toFixed(2)} ms; decode + user lookup (userFromSessionToken) ${sessionMs.toFixed(2)} ms`);
await db().$disconnect();
fs.rmSync(tmp, { recursive: true, force: true });
