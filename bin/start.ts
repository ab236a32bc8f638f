/**
 * `npm start`: build if needed, migrate, seed on first start, then serve the app and run the
 * worker process; Ctrl-C or SIGTERM stops both. `npm run dev` does the same with `next dev`.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { serverConfig } from "../lib/server/config.ts";
import { upgradeOrExit } from "../lib/server/ops/upgrade.ts";
import { removeUnfinishedImports } from "../lib/server/imports.ts";
import { seedIfEmpty } from "../lib/server/seed.ts";
import { authSecret } from "../lib/server/session.ts";
import { buildIsStale, NEXT_BIN } from "./build-state.ts";

if (fs.existsSync(".env")) process.loadEnvFile(".env");
const dev = process.argv.includes("--dev");
if (dev) process.env.CEREAL_LOG_FORMAT ??= "pretty";
const root = process.cwd();
const config = serverConfig();
process.env.NEXT_TELEMETRY_DISABLED = "1";
process.env.NEXTAUTH_URL ??= `http://localhost:${config.port}`;
authSecret(); // creates the secret on first start and puts it in the children's environment

const next = NEXT_BIN;
if (!dev && buildIsStale()) {
  console.log("[start] building the app (next build)…");
  const build = spawnSync(process.execPath, [next, "build"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// keeps a copy before pending migrations; a failed one exits here, the database as it was
upgradeOrExit(config.databasePath, (line) => console.log(`[start] ${line}`));
const discarded = await removeUnfinishedImports();
if (discarded) console.log(`[start] removed ${discarded} project(s) whose import did not finish`);
const seed = await seedIfEmpty(config);
if (seed.seeded) {
  console.log(`[start] first start: created the admin ${seed.adminEmail} with password ${seed.adminPassword} and the demo projects.`);
  console.log("[start] change the password on the Users page, or set CEREAL_ADMIN_EMAIL / CEREAL_ADMIN_PASSWORD before the first start.");
}

const children: ChildProcess[] = [
  spawn(process.execPath, [next, dev ? "dev" : "start", "-p", String(config.port)], { stdio: "inherit" }),
  spawn(process.execPath, ["--import", "tsx", path.join(root, "bin", "worker.ts")], { stdio: "inherit" }),
];
console.log(`[start] data folder ${config.dataDir}; serving http://localhost:${config.port}`);

let stopping = false;
function stop(code: number) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  const force = setTimeout(() => children.forEach((c) => c.exitCode === null && c.kill("SIGKILL")), 10_000);
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : null))).then(() => {
    clearTimeout(force);
    process.exit(code);
  });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stop(0));
// One process dying takes the other down: a half-running app is worse than a stopped one.
for (const child of children) child.once("exit", (code) => stop(code ?? 1));
