import { z } from "zod";
import { RESIDUAL_MIN_ACCURACY_PERCENT } from "@/lib/cereal/method/surrogate-health";
import { isoDateTime, metricKey } from "./wire";

/** Responses of the project, settings, member, invite, class, clustering and import routes. */
const projectRole = z.enum(["OWNER", "ANNOTATOR"]);
const mode = z.enum(["clusterwise", "pairwise"]);
const labelBy = z.enum(["pick", "verify"]).describe('clusterwise projects: how the label page asks for a class: "pick" from the list, or "verify" one class at a time ("same class as these?", the latest round\'s suggestion first)');

export const projectsResponse = z.strictObject({
  projects: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      description: z.string(),
      bundleName: z.string(),
      n: z.number().int().describe("items"),
      d: z.number().int().describe("embedding dimensions"),
      mode,
      budget: z.number().int(),
      paused: z.boolean(),
      createdAt: isoDateTime,
      role: projectRole,
      labels: z.number().int().describe("labels that count toward the budget"),
      lastEstimate: z
        .strictObject({
          round: z.number().int(),
          nLabels: z.number().int(),
          metric: z.literal("nmi"),
          values: z.array(z.strictObject({ clustering: z.string(), value: z.number() })),
        })
        .nullable()
        .describe("the latest round's NMI per clustering; null before a round or where an annotator may not see estimates"),
    }),
  ),
});

export const projectResponse = z.strictObject({
  project: z.strictObject({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    bundleName: z.string(),
    n: z.number().int(),
    d: z.number().int(),
    itemKind: z.enum(["image", "text", "none"]),
    mode,
    classMode: z.enum(["fixed", "open"]),
    labelBy,
    guidelines: z.string(),
    budget: z.number().int(),
    paused: z.boolean(),
    annotatorsSeeEstimates: z.boolean(),
    labels: z.number().int(),
    classes: z.array(z.strictObject({ index: z.number().int(), name: z.string(), description: z.string() })),
    clusterings: z.array(
      z.strictObject({
        id: z.string(),
        name: z.string(),
        k: z.number().int(),
        space: z.string().nullable(),
        soft: z.boolean(),
        trueMetrics: z.record(z.string(), z.number()).nullable().optional().describe("owner only: the bundle's true values"),
      }),
    ),
    hasReferenceLabels: z.boolean().optional().describe("owner only"),
    createdAt: isoDateTime,
    role: projectRole,
    members: z.array(z.strictObject({ id: z.string(), name: z.string(), email: z.string().nullable().describe("owner only"), role: projectRole })),
  }),
});

export const settingsResponse = z.strictObject({
  settings: z.strictObject({
    name: z.string(),
    description: z.string(),
    mode,
    classMode: z.enum(["fixed", "open"]),
    labelBy,
    guidelines: z.string(),
    acquisition: z.string(),
    design: z.string(),
    estimator: z.string(),
    fixmatch: z.boolean(),
    seedSize: z.number().int(),
    batchSize: z.number().int(),
    budget: z.number().int(),
    fixmatchSteps: z.number().int(),
    fixmatchWarmSteps: z.number().int().nullable().describe("FixMatch steps of a round that trains on from the previous round's weights; null: every round from scratch"),
    residualWhenCalibrated: z
      .number()
      .nullable()
      .describe(`a round draws by the predicted residual instead of \`acquisition\` where the earlier models, measured out of sample, were at least ${RESIDUAL_MIN_ACCURACY_PERCENT}% right and read calibrated within this gap (0 to 1), where the design is proportional; null: \`acquisition\` in every round`),
    pairDesign: z.enum(["random", "uncertain", "anchor"]).describe("pairwise projects: how the rounds draw pairs"),
    pairUniformShare: z.number().describe("pairwise projects: the share of each round's pairs drawn uniformly"),
    overlap: z.number().int(),
    annotatorsSeeEstimates: z.boolean(),
    paused: z.boolean(),
    classes: z.array(z.strictObject({ name: z.string(), description: z.string() })),
    labels: z.number().int(),
  }),
});

export const membersResponse = z.strictObject({
  members: z.array(z.strictObject({ id: z.string(), name: z.string(), email: z.string(), role: projectRole, since: isoDateTime })),
});

export const invitesResponse = z.strictObject({
  invites: z.array(z.strictObject({ id: z.string(), email: z.string().nullable(), createdAt: isoDateTime, expiresAt: isoDateTime })),
});
export const inviteCreated = z.strictObject({
  invite: z.strictObject({ id: z.string(), path: z.string().describe("the invite link's path, shown once"), email: z.string().nullable(), expiresAt: isoDateTime }),
});

export const classAdded = z.strictObject({ class: z.strictObject({ index: z.number().int(), name: z.string(), description: z.string() }) });

export const clusteringAdded = z.strictObject({ clustering: z.strictObject({ id: z.string(), name: z.string(), k: z.number().int(), soft: z.boolean() }) });

export const candidateJobsResponse = z.strictObject({
  spaces: z.array(z.string()),
  defaultSpace: z.string().nullable(),
  jobs: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      method: z.string(),
      k: z.number().int(),
      space: z.string().nullable(),
      seed: z.number().int(),
      status: z.string(),
      progress: z.record(z.string(), z.unknown()).nullable(),
      error: z.string().nullable(),
      outcome: z.strictObject({ clusteringId: z.string(), k: z.number().int().nullable(), seconds: z.number().nullable() }).nullable(),
      createdAt: isoDateTime,
      finishedAt: isoDateTime.nullable(),
    }),
  ),
});
export const candidateQueued = z.strictObject({ job: z.strictObject({ jobId: z.string(), name: z.string() }) });

export const importResponse = z.strictObject({
  import: z.strictObject({
    projectId: z.string(),
    bundleName: z.string(),
    n: z.number().int(),
    d: z.number().int(),
    itemKind: z.enum(["image", "text", "none"]),
    classNames: z.array(z.string()),
    hasReferenceLabels: z.boolean(),
    clusterings: z.array(z.strictObject({ name: z.string(), k: z.number().int(), soft: z.boolean(), space: z.string().nullable() })),
    spaces: z.array(z.strictObject({ name: z.string(), d: z.number().int() })),
  }),
});

export const trueMetricsResponse = z.strictObject({
  available: z.boolean().describe("false when the bundle has no reference labels"),
  metrics: z.record(z.string(), z.record(metricKey, z.number())).describe("per clustering, every metric against the reference labels"),
});
