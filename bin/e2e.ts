/**
 * `npm run test:e2e`: the Playwright specs against a production build, served on a free port
 * with a fresh data folder (database, secret) that is removed afterwards.
 * `--postgresql` (npm run test:e2e:pg) runs the team deployment instead: the Procfile's processes
 * (release, one web process, one worker per lane) on a fresh PostgreSQL schema, and the
 * *.postgresql.spec.ts specs, which the SQLite run leaves out; it fails when PostgreSQL does not
 * answer, or with `--if-reachable` (npm test) says so and skips.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestSchema, dropTestSchema, postgresReachable, TEST_POSTGRES_URL } from "../lib/server/test-postgresql.ts";
import { buildIsStale, NEXT_BIN } from "./build-state.ts";
import { freePort } from "./free-port.ts";
import { readProcfile, startProcess, stopProcess } from "./procfile.ts";

const postgres = process.argv.includes("--postgresql");
// CI (.ci/run) sets CEREAL_REQUIRE_POSTGRESQL=1: there an unreachable server fails npm test too
const ifReachable = process.argv.includes("--if-reachable") && !process.env.CEREAL_REQUIRE_POSTGRESQL;
const specArgs = process.argv.slice(2).filter((a) => a !== "--postgresql" && a !== "--if-reachable");
if (postgres && !(await postgresReachable())) {
  const line = `PostgreSQL does not answer at ${TEST_POSTGRES_URL} (set CEREAL_TEST_POSTGRES_URL to another server)`;
  if (!ifReachable) {
    console.error(`e2e: ${line}.`);
    process.exit(1);
  }
  console.log(`\n*** SKIPPED the PostgreSQL e2e spec: ${line}. npm run test:e2e:pg runs it and fails. ***\n`);
  process.exit(0);
}

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!fs.existsSync(chromium)) {
  console.error(`e2e: Chromium not found at ${chromium}.\n  Install Debian's build: sudo apt-get install -y chromium\n  or point CHROMIUM_PATH at a Chromium binary. (npx playwright install does not work offline.)`);
  process.exit(1);
}


process.env.NEXT_TELEMETRY_DISABLED = "1";
if (buildIsStale()) {
  const build = spawnSync(process.execPath, [NEXT_BIN, "build"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const port = await freePort();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-e2e-"));
const databaseUrl = postgres ? await createTestSchema() : null;
const baseUrl = `http://localhost:${port}`;
const env = { ...process.env, PORT: String(port), CEREAL_DATA_DIR: dataDir, NEXTAUTH_URL: baseUrl, NEXTAUTH_SECRET: "", ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) };
let serverLog = "";
const say = (line: string) => (serverLog += `${line}\n`);
// SQLite: npm start (web and its supervised workers in one tree); PostgreSQL: the Procfile's processes
const processes = postgres ? readProcfile() : [{ name: "start", command: `"${process.execPath}" --import tsx bin/start.ts` }];
for (const entry of processes.filter((p) => p.name === "release")) {
  const release = spawnSync("/bin/sh", ["-c", entry.command], { env, encoding: "utf8" });
  say(`release| ${release.stdout}${release.stderr}`);
  if (release.status !== 0) throw new Error(`the Procfile's release failed:\n${serverLog}`);
}
const children = processes.filter((p) => p.name !== "release").map((entry) => startProcess(entry, env, say));
const server = children[0];

async function waitForServer(deadline: number) {
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the app exited early:\n${serverLog}`);
    const ok = await fetch(`${baseUrl}/signin`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the app did not answer on ${baseUrl} within 120 s:\n${serverLog}`);
}

let code = 1;
try {
  await waitForServer(Date.now() + 120_000);
  const run = spawnSync(process.execPath, ["node_modules/@playwright/test/cli.js", "test", ...specArgs], {
    stdio: "inherit",
    env: { ...process.env, E2E_BASE_URL: baseUrl, CEREAL_DATA_DIR: dataDir, E2E_DATABASE: postgres ? "postgresql" : "sqlite" },
  });
  code = run.status ?? 1;
  if (code !== 0 && process.env.E2E_SERVER_LOG !== "0") console.error(`--- app log ---\n${serverLog.slice(-8000)}`);
} catch (error) {
  console.error(String(error));
} finally {
  await Promise.all(children.map((child) => stopProcess(child)));
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (databaseUrl) await dropTestSchema(databaseUrl);
}
process.exit(code);
