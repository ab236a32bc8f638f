import { candidateClusteringJob } from "../projects/candidate-clusterings";
import { labelFreeJob } from "../evaluation/label-free";
import { roundJob } from "../rounds/round-job";
import { simulationJob } from "../evaluation/simulations";
import { webhookJob } from "../webhooks/delivery-job";
import type { JobDefinition } from "./definition";

/** Every job kind the worker runs. A feature defines its job (jobs/definition.ts) and adds it here. */
export const JOBS: readonly JobDefinition[] = [roundJob, simulationJob, labelFreeJob, candidateClusteringJob, webhookJob];
