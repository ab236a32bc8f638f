/** The worker process (`npm run worker`; `npm start` runs it beside the web server). */
import { runWorker } from "../lib/server/worker.ts";
import { jobHandlers } from "../lib/server/job-handlers.ts";

const controller = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => controller.abort());
await runWorker({ handlers: jobHandlers, signal: controller.signal, log: (m) => console.log(`[worker] ${m}`) });
process.exit(0);
