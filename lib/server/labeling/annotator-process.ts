/**
 * Test support for concurrent-annotators.test.ts: one web process's worth of annotators. Reads
 * {projectId, annotators} as JSON from argv; each annotator takes a task and answers it with the
 * truth, all at once, until the budget is reached (waiting while every open task is leased by
 * someone else). Prints {labeled: {userId: taskIds[]}, errors: string[]}. DATABASE_URL and
 * CEREAL_DATA_DIR come from the parent test, so both processes share its database.
 */
import path from "node:path";
import { readNpy } from "@/lib/data/npy";
import type { SessionUser } from "../auth/session";
import { db } from "../db";
import { DIGITS } from "./labeling-test-fixture";
import { submitLabel } from "./labels";
import { stageDrawsSettled } from "./stages";
import { nextTasks } from "./tasks";

const MAX_WAITS = 2000;
const { projectId, annotators } = JSON.parse(process.argv[2]) as { projectId: string; annotators: SessionUser[] };
const truth = (await readNpy(path.join(DIGITS, "labels.npy"))).data as Int32Array;
const errors: string[] = [];
const labeled: Record<string, string[]> = {};

async function annotate(user: SessionUser) {
  const done: string[] = (labeled[user.id] = []);
  for (let waits = 0; ; ) {
    const next = await nextTasks(user, projectId, 1);
    if (next.state === "budget_reached") return;
    if (!next.tasks.length) {
      if (++waits > MAX_WAITS) throw new Error(`still ${next.state} after ${MAX_WAITS} tries: ${next.message}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    const task = next.tasks[0];
    await submitLabel(user, projectId, { taskId: task.id, kind: "label", classIndex: truth[task.item.index], idempotencyKey: `${user.id}-${task.id}` });
    done.push(task.id);
  }
}

await Promise.all(annotators.map((user) => annotate(user).catch((error: unknown) => errors.push(`${user.email}: ${(error as Error).message}`))));
await stageDrawsSettled();
await db().$disconnect();
console.log(JSON.stringify({ labeled, errors }));
