/**
 * Test support (worker-supervisor.test.ts): a worker process on the fast k-NN surrogates instead
 * of TF.js. While the file named by CEREAL_TEST_HOLD_FILE holds this worker's CEREAL_WORKER_ID,
 * its rounds never get past creating the surrogate: "a worker busy with a round", to be killed.
 * `--lane rounds|heavy|all` as bin/worker.ts.
 */
import fs from "node:fs";
import { createKnnSurrogateFactory } from "@/lib/cereal/fakes/knn-surrogate";
import { createPairComponentsSurrogateFactory } from "@/lib/cereal/fakes/pair-components-surrogate";
import { jobsOfLanes, lanesFromArgs, runWorker } from "../jobs/worker-loop";

const knn = createKnnSurrogateFactory();
const holdFile = process.env.CEREAL_TEST_HOLD_FILE;
const held = () => holdFile !== undefined && fs.existsSync(holdFile) && fs.readFileSync(holdFile, "utf8").trim() === process.env.CEREAL_WORKER_ID;

const controller = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => controller.abort());
await runWorker({
  jobs: jobsOfLanes(lanesFromArgs(process.argv.slice(2))),
  deps: {
    createSurrogate: async (embeddings, k) => {
      while (held()) await new Promise((resolve) => setTimeout(resolve, 50));
      return knn(embeddings, k);
    },
    createPairwiseSurrogate: createPairComponentsSurrogateFactory(),
  },
  signal: controller.signal,
  pollMs: 50,
  workerId: process.env.CEREAL_WORKER_ID || undefined,
});
process.exit(0);
