/**
 * The worker process (`npm run worker -- --lane rounds|heavy|all`, default all). `npm start` runs
 * one per lane beside the web server under a supervisor, which names each through
 * CEREAL_WORKER_ID so that it can hand its jobs back if it dies. It runs anywhere that reaches the
 * database and the project files (CEREAL_DATA_DIR on a shared mount). SIGTERM drains it: the
 * running job may finish within CEREAL_WORKER_GRACE_MS, else it goes back to the queue.
 */
import { createMclSurrogate, createMlpSurrogate } from "../models/index.ts";
import { jobsOfLanes, lanesFromArgs, runWorker } from "../lib/server/jobs/worker-loop.ts";
import { logger } from "../lib/server/ops/logger.ts";

const lanes = lanesFromArgs(process.argv.slice(2));
const controller = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => controller.abort());
await runWorker({
  deps: { createSurrogate: createMlpSurrogate, createPairwiseSurrogate: createMclSurrogate },
  jobs: jobsOfLanes(lanes),
  signal: controller.signal,
  workerId: process.env.CEREAL_WORKER_ID || undefined,
  log: (message) => logger().info({ process: "worker", lanes }, message),
});
process.exit(0);
