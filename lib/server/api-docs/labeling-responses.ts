import { z } from "zod";
import { isoDateTime, itemView, labelRow } from "./wire";

/** Responses of the task, label, item and overview routes. */
export const nextTasksResponse = z.strictObject({
  tasks: z.array(
    z.strictObject({
      id: z.string(),
      stage: z.number().int().describe("the stage the task was drawn in (0: the seed stage)"),
      drawnByRound: z.number().int().nullable().describe("the round whose ranking drew it"),
      leaseExpiresAt: isoDateTime,
      item: itemView,
      itemB: itemView.nullable().describe("the second item of a pair (pairwise projects)"),
      hint: z
        .strictObject({
          suggestedClass: z.number().int().nullable().describe("the latest round's pseudo-label of the item, asked first; null before any round"),
          cluster: z.number().int().nullable().describe("the item's cluster in the project's first clustering (by name), for the order of the other classes"),
        })
        .nullable()
        .describe("what the one-class-at-a-time view asks first; only where the project's labelBy is verify, else null"),
    }),
  ),
  state: z.enum(["ok", "paused", "budget_reached", "waiting"]),
  message: z.string().optional(),
});

const progress = z.strictObject({ labels: z.number().int(), budget: z.number().int() });
export const labelSubmitted = z.strictObject({ label: labelRow, duplicate: z.boolean().describe("true when this idempotencyKey was already stored"), progress });
export const labelUndone = labelSubmitted.extend({ taskId: z.string() });
export const labelCorrected = z.strictObject({ label: labelRow });
export const leasesReleased = z.strictObject({ released: z.number().int() });
export const tieResolved = z.strictObject({ taskId: z.string(), resolved: z.string() });

const cellItem = itemView.extend({
  cluster: z.number().int(),
  class: z.number().int().nullable(),
  labeled: z.boolean(),
  confidence: z.number().nullable(),
});
const classesSource = z.union([z.strictObject({ kind: z.literal("round"), round: z.number().int() }), z.strictObject({ kind: z.literal("labels"), round: z.null() })]);
export const itemsResponse = z.union([
  z.strictObject({ items: z.array(itemView), next: z.number().int().nullable().describe("the `after` of the next page; null at the end") }),
  z.strictObject({ items: z.array(cellItem), next: z.number().int().nullable(), total: z.number().int(), source: classesSource.nullable() }).describe("with ?clustering=: one cell of the contingency view"),
]);

export const classExamplesResponse = z.strictObject({
  examples: z.array(z.strictObject({ classIndex: z.number().int(), items: z.array(itemView) })),
  clusterCounts: z
    .array(z.tuple([z.number().int(), z.number().int(), z.number().int()]))
    .optional()
    .describe("[cluster, class, labels] per class labeled in a cluster of the project's first clustering; only where the project's labelBy is verify"),
});

const verification = z.strictObject({
  verifiedLabels: z.number().int().describe('labels given one class at a time ("same class?" answers)'),
  answersPerLabel: z.number().nullable().describe('the mean number of "same class?" answers those labels took; null without one'),
});

export const labelOverviewResponse = z.strictObject({
  mode: z.enum(["clusterwise", "pairwise"]),
  overlap: z.number().int(),
  classes: z.array(z.strictObject({ value: z.string(), name: z.string(), count: z.number().int() })),
  annotators: z.array(
    z.strictObject({
      userId: z.string(),
      name: z.string(),
      email: z.string(),
      labels: z.number().int(),
      skips: z.number().int(),
      unsure: z.number().int(),
      timedAnswers: z.number().int().describe("answers with a measured time"),
      medianSeconds: z.number().nullable().describe("median seconds per answer; null without a timed answer"),
      ...verification.shape,
    }),
  ),
  answerTime: z
    .strictObject({ mode: z.enum(["clusterwise", "pairwise"]), timedAnswers: z.number().int(), medianSeconds: z.number().nullable() })
    .describe("the median seconds per answer over every timed answer of the project's mode"),
  verification: verification.describe("labels given one class at a time (labelBy verify), over every annotator"),
  agreement: z
    .strictObject({ method: z.enum(["cohen", "krippendorff"]), value: z.number().nullable(), units: z.number().int(), raters: z.number().int(), unanimous: z.number().int() })
    .nullable(),
  recent: z.strictObject({
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
    labels: z.array(
      z.strictObject({
        id: z.string(),
        taskId: z.string(),
        item: itemView,
        itemB: itemView.nullable(),
        kind: z.string(),
        classIndex: z.number().int().nullable(),
        answer: z.string().nullable(),
        value: z.string(),
        annotator: z.string(),
        usedByRound: z.number().int().nullable(),
        createdAt: isoDateTime,
      }),
    ),
  }),
  ties: z.array(
    z.strictObject({
      taskId: z.string(),
      item: itemView,
      itemB: itemView.nullable(),
      votes: z.array(z.strictObject({ annotator: z.string(), value: z.string(), name: z.string() })),
    }),
  ),
});
