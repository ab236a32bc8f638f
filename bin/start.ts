/**
 * `npm start`: build if needed, migrate, seed on first start, then serve the app and run one
 * worker process per lane (rounds, heavy) under a supervisor each: a worker that dies is logged (exit code or signal), its
 * running jobs go back to the queue at once, and it is restarted with backoff while the app keeps
 * serving (lib/server/ops/worker-supervisor.ts). Ctrl-C or SIGTERM stops them all. `npm run dev`
 * does the same with `next dev`. `--web-only` (the Procfile's web process) starts no worker: the
 * workers run as processes of their own, on this machine or others (README "Team deployment").
 * The app is served by Next's request handler inside this process, behind a plain HTTP server
 * that sets X-Forwarded-For from the socket (lib/server/http/app-server.ts): the sign-in throttle
 * must see the real address, which `next start` lets a client choose.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createAppServer } from "../lib/server/http/app-server.ts";
import { trustedProxies } from "../lib/server/http/client-address.ts";
import { serverConfig } from "../lib/server/config.ts";
import { removeUnfinishedImports } from "../lib/server/imports/imports.ts";
import { seedIfEmpty } from "../lib/server/projects/seed.ts";
import { authSecret } from "../lib/server/auth/session.ts";
import { upgradeConfiguredOrExit } from "../lib/server/ops/upgrade.ts";
import { superviseWorker } from "../lib/server/ops/worker-supervisor.ts";
import { LANES, WORKER_GRACE_MS } from "../lib/server/jobs/definition.ts";
import { buildIsStale, NEXT_BIN } from "./build-state.ts";

if (fs.existsSync(".env")) process.loadEnvFile(".env");
const dev = process.argv.includes("--dev");
// the Procfile's web process: its workers run as processes of their own (npm run worker -- --lane ...)
const webOnly = process.argv.includes("--web-only");
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

// keeps a copy (SQLite) before pending migrations; a failed one exits here, the database as it was
await upgradeConfiguredOrExit((line) => console.log(`[start] ${line}`));
const discarded = await removeUnfinishedImports();
if (discarded) console.log(`[start] removed ${discarded} project(s) whose import did not finish`);
const seed = await seedIfEmpty(config);
if (seed.seeded) {
  console.log(`[start] first start: created the admin ${seed.adminEmail} with password ${seed.adminPassword} and the demo projects.`);
  console.log("[start] change the password on the Users page, or set CEREAL_ADMIN_EMAIL / CEREAL_ADMIN_PASSWORD before the first start.");
}

// Next reads NODE_ENV when it loads, as `next start` and `next dev` would set it.
Object.assign(process.env, { NODE_ENV: dev ? "development" : "production" });
const { default: createNext } = await import("next");
const app = createNext({ dev, dir: root, hostname: "localhost", port: config.port });
const handle = app.getRequestHandler();
await app.prepare();
const trusted = trustedProxies();
const server = createAppServer(handle, trusted);
await new Promise<void>((resolve, reject) => server.once("error", reject).listen(config.port, resolve));
// one worker per lane (TF.js's engine is global to a process): a simulation never holds up a round
const workers = (webOnly ? [] : LANES).map((lane) =>
  superviseWorker({
    command: process.execPath,
    args: ["--import", "tsx", path.join(root, "bin", "worker.ts"), "--lane", lane],
    say: (line) => console.log(`[start] ${lane} ${line}`),
  }),
);
console.log(`[start] data folder ${config.dataDir}; serving http://localhost:${config.port}${trusted.size ? `; trusted proxies ${[...trusted].join(", ")}` : ""}`);

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  server.close();
  server.closeAllConnections();
  // each worker drains: its running job may finish within the grace period, else it is handed back
  Promise.all([...workers.map((worker) => worker.stop(WORKER_GRACE_MS + 5_000)), app.close()]).then(() => process.exit(0));
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, stop);
