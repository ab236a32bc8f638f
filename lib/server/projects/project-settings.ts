/**
 * A project's settings, changed by its owner. The annotation mode and the reference classes give
 * labels their meaning, so once a project has labels they are frozen (409): a label "class 3" or
 * "same" must keep meaning what the annotator meant. Everything else may change between batches.
 */
import { z } from "zod";
import { designsFor } from "@/lib/cereal/method/acquire";
import { ACQUISITIONS, type Acquisition } from "@/lib/cereal/method/acquisition";
import { DESIGNS, type Design } from "@/lib/cereal/method/designs";
import { ESTIMATORS } from "@/lib/cereal/method/estimators";
import { PAIR_DESIGNS } from "@/lib/cereal/pairwise/pair-designs";
import type { Prisma } from "@/lib/generated/prisma/client";
import { db } from "../db";
import { labelBySchema } from "../project-data/options-catalogue";
import { badRequest, conflict } from "../errors";
import { requireProjectRole } from "../auth/project-access";
import type { SessionUser } from "../auth/session";

const count = (max: number) => z.number().int("Use a whole number.").min(1, "Use at least 1.").max(max, `Use at most ${max}.`);

const CALIBRATION_GAP = "residualWhenCalibrated is a gap between accuracy and confidence from 0 to 1 (e.g. 0.05)";
/** the residual switch's gap (RoundOptions.residualWhenCalibrated), or null for no switch: the project's setting and a simulation's option */
export const residualWhenCalibratedSchema = z
  .number(`${CALIBRATION_GAP}, or null (draw by \`acquisition\` in every round).`)
  .min(0, `${CALIBRATION_GAP}; null turns the switch off.`)
  .max(1, `${CALIBRATION_GAP}; null turns the switch off.`)
  .nullable();

export const projectSettingsInput = z.strictObject({
  name: z.string().trim().min(1, "Give the project a name.").max(200).optional(),
  description: z.string().max(2000).optional(),
  mode: z.enum(["clusterwise", "pairwise"]).optional(),
  classMode: z.enum(["fixed", "open"]).optional(),
  labelBy: labelBySchema.optional(),
  classes: z
    .array(z.object({ name: z.string().trim().min(1, "Every class needs a name.").max(200), description: z.string().max(2000).default("") }))
    .max(1000)
    .refine((list) => new Set(list.map((c) => c.name.toLowerCase())).size === list.length, "Class names must be different from each other.")
    .optional(),
  guidelines: z.string().max(50_000).optional(),
  acquisition: z.enum(ACQUISITIONS).optional(),
  design: z.enum(DESIGNS).optional(),
  estimator: z.enum(Object.keys(ESTIMATORS) as [string, ...string[]]).optional(),
  fixmatch: z.boolean().optional(),
  pairDesign: z.enum(PAIR_DESIGNS, `pairDesign is one of ${PAIR_DESIGNS.join(", ")} (a pairwise project's pair design).`).optional(),
  pairUniformShare: z
    .number("pairUniformShare is a number from 0 to 1.")
    .min(0, "pairUniformShare is a share: use 0 (only the design's own pairs) to 1 (all uniform pairs).")
    .max(1, "pairUniformShare is a share: use 0 (only the design's own pairs) to 1 (all uniform pairs).")
    .optional(),
  seedSize: count(100_000).optional(),
  batchSize: count(100_000).optional(),
  budget: count(10_000_000).optional(),
  fixmatchSteps: z.number().int().min(0).max(100_000).optional(),
  fixmatchWarmSteps: z
    .number("fixmatchWarmSteps is a whole number of steps, or null (every round trains from scratch).")
    .int("fixmatchWarmSteps is a whole number of steps, or null (every round trains from scratch).")
    .min(1, "fixmatchWarmSteps is at least 1 step; null turns warm start off.")
    .max(100_000)
    .nullable()
    .optional(),
  residualWhenCalibrated: residualWhenCalibratedSchema.optional(),
  overlap: count(20).optional(),
  annotatorsSeeEstimates: z.boolean().optional(),
  paused: z.boolean().optional(),
});
export type ProjectSettingsInput = z.infer<typeof projectSettingsInput>;

const SETTINGS_SELECT = {
  name: true,
  description: true,
  mode: true,
  classMode: true,
  labelBy: true,
  guidelines: true,
  acquisition: true,
  design: true,
  estimator: true,
  fixmatch: true,
  pairDesign: true,
  pairUniformShare: true,
  seedSize: true,
  batchSize: true,
  budget: true,
  fixmatchSteps: true,
  fixmatchWarmSteps: true,
  residualWhenCalibrated: true,
  overlap: true,
  annotatorsSeeEstimates: true,
  paused: true,
} as const;

/**
 * The design a project draws with after a change: the one asked for if the acquisition can draw
 * with it (designsFor), else 400; when only the acquisition changes, the current design if it still
 * fits, else the acquisition's first (Random: uniform; a scoring acquisition: proportional).
 */
function sampleDesign(acquisition: Acquisition, current: Design, asked: Design | undefined): Design {
  const allowed = designsFor(acquisition);
  if (asked !== undefined) {
    if (!allowed.includes(asked)) throw badRequest(`The ${acquisition} acquisition draws with ${allowed.join(" or ")}, not ${asked}; choose one of those or another acquisition.`);
    return asked;
  }
  return allowed.includes(current) ? current : allowed[0];
}

export async function getProjectSettings(user: SessionUser, projectId: string) {
  await requireProjectRole(user, projectId, "OWNER");
  const project = await db().project.findUniqueOrThrow({
    where: { id: projectId },
    select: { ...SETTINGS_SELECT, classes: { orderBy: { index: "asc" }, select: { name: true, description: true } } },
  });
  const labels = await db().label.count({ where: { projectId } });
  return { ...project, labels };
}

export async function updateProjectSettings(user: SessionUser, projectId: string, input: ProjectSettingsInput) {
  await requireProjectRole(user, projectId, "OWNER");
  const current = await db().project.findUniqueOrThrow({
    where: { id: projectId },
    select: { ...SETTINGS_SELECT, classes: { orderBy: { index: "asc" }, select: { name: true, description: true } } },
  });
  const next = { ...current, ...input };
  const design = sampleDesign(next.acquisition as Acquisition, current.design as Design, input.design);
  if (next.seedSize > next.budget) throw badRequest(`The seed batch (${next.seedSize}) cannot exceed the budget (${next.budget}).`);
  if (next.batchSize > next.budget) throw badRequest(`A batch (${next.batchSize}) cannot exceed the budget (${next.budget}).`);

  const modeChanges = input.mode !== undefined && input.mode !== current.mode;
  const namesChange = input.classes !== undefined && input.classes.map((c) => c.name).join("\n") !== current.classes.map((c) => c.name).join("\n");
  if (modeChanges || namesChange) {
    const labels = await db().label.count({ where: { projectId } });
    if (labels > 0)
      throw conflict(
        `This project already has ${labels} label${labels === 1 ? "" : "s"}; changing the ${modeChanges ? "annotation mode" : "classes"} would change what they mean. Class descriptions and every other setting can still change; start a new project for a different ${modeChanges ? "mode" : "class list"}.`,
      );
  }

  const { classes, ...fields } = input;
  // Same names: descriptions change in place (rows keep their ids and who added them).
  const classWrites: Prisma.PrismaPromise<unknown>[] = !classes
    ? []
    : namesChange
      ? [
          db().referenceClass.deleteMany({ where: { projectId } }),
          db().referenceClass.createMany({ data: classes.map((c, index) => ({ projectId, index, name: c.name, description: c.description })) }),
        ]
      : classes.map((c, index) => db().referenceClass.update({ where: { projectId_index: { projectId, index } }, data: { description: c.description } }));
  await db().$transaction([db().project.update({ where: { id: projectId }, data: { ...fields, design } }), ...classWrites]);
  return getProjectSettings(user, projectId);
}
