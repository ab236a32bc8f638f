import { createMclSurrogate, createMlpSurrogate } from "@/models";
import { candidateClusteringJobHandler } from "./candidate-clusterings";
import { labelFreeJobHandler } from "./label-free";
import { roundJobHandler } from "./rounds";
import { SIMULATE_JOB, simulationJobHandler } from "./simulations";
import type { JobHandler } from "./worker";

/** Every job kind the worker runs, by name. Features add their handler here. */
export const jobHandlers: Record<string, JobHandler> = {
  round: roundJobHandler(createMlpSurrogate, createMclSurrogate),
  cluster: candidateClusteringJobHandler,
  "label-free": labelFreeJobHandler,
  [SIMULATE_JOB]: simulationJobHandler(createMlpSurrogate),
};
