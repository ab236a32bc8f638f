/**
 * The worker process (`npm run worker`; `npm start` runs it beside the web server under a
 * supervisor, which names it through CEREAL_WORKER_ID so that it can hand its jobs back if it dies).
 */
import { createMclSurrogate, createMlpSurrogate } from "../models/index.ts";
import { runWorker } from "../lib/server/jobs/worker-loop.ts";
import { logger } from "../lib/server/ops/logger.ts";

const controller = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => controller.abort());
await runWorker({
  deps: { createSurrogate: createMlpSurrogate, createPairwiseSurrogate: createMclSurrogate },
  signal: controller.signal,
  workerId: process.env.CEREAL_WORKER_ID || undefined,
  log: (message) => logger().info({ process: "worker" }, message),
});
process.exit(0);
