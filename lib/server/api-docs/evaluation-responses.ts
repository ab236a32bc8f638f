import { z } from "zod";
import { INTERNAL_MEASURES } from "@/lib/ace";
import { estimatePoint, isoDateTime, jsonObject, metricKey } from "./wire";

/** Responses of the progress, round, estimate and evaluation routes. */
const roundProgress = z.strictObject({ phase: z.string().optional(), step: z.number().optional(), total: z.number().optional() });
const measure = z.enum(INTERNAL_MEASURES as [string, ...string[]]);

export const projectSnapshotResponse = z.strictObject({
  labels: z.number().int(),
  budget: z.number().int(),
  paused: z.boolean(),
  stages: z
    .strictObject({ latest: z.number().int(), settled: z.number().int(), fresh: z.number().int(), batchSize: z.number().int() })
    .nullable()
    .describe("the latest stage drawn, the last of the settled prefix (-1: none), and the settled stages' labels no round used yet (a round is due at batchSize)"),
  round: z
    .strictObject({ index: z.number().int(), status: z.enum(["queued", "running", "failed"]), progress: roundProgress.nullable(), error: z.string().nullable() })
    .nullable()
    .describe("the round queued, running or failed now"),
  lastRound: z.strictObject({ index: z.number().int(), nLabels: z.number().int(), finishedAt: isoDateTime.nullable() }).nullable(),
  estimates: z
    .record(z.string(), z.record(z.string(), estimatePoint))
    .nullable()
    .describe("the latest estimates: clustering -> metric -> value with its interval; null where the user may not see them"),
  estimatesRound: z
    .strictObject({ index: z.number().int(), nLabels: z.number().int(), interim: z.boolean(), model: z.number().int() })
    .nullable()
    .describe(
      "the round the estimates belong to: the latest finished one (interim false), or the running round's interim estimates (interim true), computed from round `model`'s model (the previous round's) while its own trains and replaced when it finishes; null with the estimates",
    ),
});

const estimateRow = estimatePoint.extend({ clustering: z.string(), metric: z.string() });
export const roundsResponse = z.strictObject({
  rounds: z.array(
    z.strictObject({
      index: z.number().int(),
      status: z.string(),
      nLabels: z.number().int(),
      backend: z.string().nullable(),
      maskRate: z.number().nullable(),
      estimator: z.string().nullable(),
      surrogateAccuracy: z
        .number()
        .nullable()
        .describe("the earlier rounds' models on the labels they never saw: clusterwise, the share of items right; pairwise, the share of the newest stage's uniform pairs whose answer its drawing model predicted"),
      surrogateWeak: z
        .boolean()
        .nullable()
        .describe(
          "clusterwise: earlier rounds' models got under 60% of the newly labeled items right; pairwise: the models that drew the answered pairs are not shown to predict their answers better than chance (always so in round 0), so the NMI, AMI and V-measure intervals span their whole range",
        ),
      surrogateEce: z.number().nullable(),
      acquisition: z
        .string()
        .nullable()
        .describe(
          "clusterwise: the acquisition the round's ranking scored with, the project's or `residual` where the project's residualWhenCalibrated switched to the residual score (its earlier models read calibrated); null for pairwise rounds and rounds recorded before it",
        ),
      trainSeconds: z.number().nullable(),
      roundSeconds: z.number().nullable(),
      writeSeconds: z.number().nullable(),
      error: z.string().nullable(),
      createdAt: isoDateTime,
      finishedAt: isoDateTime.nullable(),
      job: z.strictObject({ status: z.string(), progress: roundProgress.nullable(), attempts: z.number().int() }).nullable(),
      interim: z.boolean().describe("true: a running round's interim estimates, from the previous round's model; replaced by the final ones when it finishes"),
      estimates: z.array(estimateRow).nullable(),
    }),
  ),
  queued: z.array(z.strictObject({ index: z.number().int(), status: z.string() })),
});
export const roundAction = z.strictObject({ index: z.number().int(), status: z.string() });

export const rankingResponse = z.strictObject({
  metric: metricKey,
  round: z.strictObject({ index: z.number().int(), nLabels: z.number().int(), estimator: z.string().nullable() }).nullable(),
  rows: z.array(
    z.strictObject({
      name: z.string(),
      k: z.number().int(),
      estimate: estimatePoint.extend({ change: z.number().nullable() }).nullable(),
      labelFree: z.strictObject({ paired: z.number().nullable(), ace: z.number().nullable(), space: z.string().nullable() }).nullable(),
    }),
  ),
  labelFree: z.enum(["ready", "computing", "unavailable"]).nullable(),
  agreement: z.strictObject({ rho: z.number(), n: z.number().int() }).nullable(),
});

export const stopRuleResponse = z.strictObject({
  status: z
    .record(
      z.string(),
      z.record(
        z.string(),
        z.strictObject({
          converged: z.boolean(),
          width: z.number(),
          moved: z.number().nullable(),
          labelsStillNeeded: z.number().nullable(),
          rounds: z.number().int(),
        }),
      ),
    )
    .describe("clustering -> metric -> the stop rule's decision"),
});

export const contingencyResponse = z.strictObject({
  clustering: z.string(),
  k: z.number().int(),
  classes: z.array(z.string()),
  source: z.union([z.strictObject({ kind: z.literal("round"), round: z.number().int() }), z.strictObject({ kind: z.literal("labels"), round: z.null() })]),
  labeled: z.number().int(),
  pseudoLabeled: z.number().int(),
  cells: z.array(z.array(z.number())).describe("cluster x class counts"),
  rowMaxima: z.array(z.array(z.number().int())),
  associativity: z.number(),
  peakiness: z.number(),
  ap: z.number(),
});

export const labelFreeResponse = z.discriminatedUnion("state", [
  z.strictObject({
    state: z.literal("ready"),
    measure,
    computedAt: isoDateTime,
    spaces: z.array(z.strictObject({ name: z.string(), dip: z.number(), pValue: z.number(), multimodal: z.boolean(), weight: z.number() })),
    clusterings: z.array(
      z.strictObject({ id: z.string(), name: z.string(), space: z.string().nullable(), paired: z.number().nullable(), pooled: z.number().nullable(), ace: z.number().nullable() }),
    ),
    outlierSpaces: z.array(z.string()),
  }),
  z.strictObject({ state: z.literal("computing"), measure, jobId: z.string() }),
  z.strictObject({ state: z.literal("unavailable"), measure, reason: z.string() }),
]);

export const simulationsResponse = z.strictObject({
  simulations: z.array(
    z.strictObject({
      id: z.string(),
      status: z.string(),
      options: jsonObject.describe("the simulation's options, as POSTed with defaults filled in"),
      progress: jsonObject.nullable(),
      summary: jsonObject.nullable().describe("AEC and final estimates, once done"),
      error: z.string().nullable(),
      createdAt: isoDateTime,
      finishedAt: isoDateTime.nullable(),
    }),
  ),
});
export const simulationQueued = z.strictObject({ id: z.string(), status: z.string() });
export const simulationResponse = z.strictObject({
  id: z.string(),
  status: z.string(),
  error: z.string().nullable(),
  result: jsonObject.nullable().describe("every round's estimates and the AEC summary, once done"),
});
