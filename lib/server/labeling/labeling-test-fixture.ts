import path from "node:path";
import { createKnnSurrogateFactory } from "@/lib/cereal/fakes/knn-surrogate";
import { createPairComponentsSurrogateFactory } from "@/lib/cereal/fakes/pair-components-surrogate";
import { readNpy } from "@/lib/data/npy";
import { db } from "../db";
import { importBundle } from "../imports/imports";
import { submitLabel } from "./labels";
import { stageDrawsSettled } from "./stages";
import { nextTasks } from "./tasks";
import { createTestUser } from "../http/test-requests";
import type { WorkerDeps } from "../jobs/definition";
import type { SessionUser } from "../auth/session";

/**
 * Test support for the labeling loop: the shipped digits bundle imported as a project, members,
 * an oracle that answers from labels.npy, and worker handlers with a fast surrogate.
 */
export const DIGITS = path.join(process.cwd(), "data", "digits");

export async function digitsProject(
  settings: Partial<{ seedSize: number; batchSize: number; budget: number; overlap: number; acquisition: string; design: string; pairDesign: string; pairUniformShare: number; fixmatch: boolean; fixmatchSteps: number; fixmatchWarmSteps: number | null; residualWhenCalibrated: number | null; mode: string; estimator: string }> = {},
) {
  const owner = await createTestUser("RESEARCHER");
  const { projectId } = await importBundle(DIGITS, owner.id, { name: "Digits", mode: (settings.mode as "clusterwise" | "pairwise") ?? "clusterwise" });
  // Hard NMI as the paper draws it (top score) unless a test asks otherwise; Random draws uniformly
  const design = settings.design ?? (settings.acquisition === "random" ? "uniform" : "top-score");
  await db().project.update({ where: { id: projectId }, data: { seedSize: 20, batchSize: 10, budget: 60, acquisition: "hardnmi", fixmatch: false, seed: 7, ...settings, design } });
  const annotators = [await createTestUser("ANNOTATOR"), await createTestUser("ANNOTATOR")];
  await db().projectMember.createMany({ data: annotators.map((a) => ({ projectId, userId: a.id, role: "ANNOTATOR" as const })) });
  const truth = (await readNpy(path.join(DIGITS, "labels.npy"))).data as Int32Array;
  return { projectId, owner: asSession(owner), annotators: annotators.map(asSession), truth };
}

export const asSession = (u: { id: string; email: string; name: string; role: "ADMIN" | "RESEARCHER" | "ANNOTATOR" }): SessionUser => ({ id: u.id, email: u.email, name: u.name, role: u.role });

let keys = 0;
/**
 * Takes tasks and labels them with the truth until none is left for this user; returns the task
 * ids once the stage draws those requests started are written, so what a round run next ranks
 * does not depend on timing.
 */
export async function labelAll(user: SessionUser, projectId: string, truth: Int32Array, max = Infinity): Promise<string[]> {
  const done: string[] = [];
  while (done.length < max) {
    const { tasks } = await nextTasks(user, projectId, 1);
    if (!tasks.length) break;
    const task = tasks[0];
    const answer = task.itemB ? { answer: truth[task.item.index] === truth[task.itemB.index] ? ("same" as const) : ("different" as const) } : { classIndex: truth[task.item.index] };
    await submitLabel(user, projectId, { taskId: task.id, kind: "label", idempotencyKey: `key-${process.pid}-${keys++}`, ...answer });
    done.push(task.id);
  }
  await stageDrawsSettled();
  return done;
}

/** The worker's surrogates as k-NN (fast, no TF.js): items, and pairs by linked components. */
export const fastWorkerDeps: WorkerDeps = { createSurrogate: createKnnSurrogateFactory(), createPairwiseSurrogate: createPairComponentsSurrogateFactory() };
