/**
 * Test support for concurrent-annotators.test.ts: one web process's worth of annotators. Reads
 * {projectId, annotators} as JSON from argv, labels with the truth until nothing is left for
 * each of them (all at once), and prints {labeled: {userId: taskIds[]}, errors: string[]}.
 * DATABASE_URL and CEREAL_DATA_DIR come from the parent test, so both processes share its database.
 */
import path from "node:path";
import { readNpy } from "@/lib/data/npy";
import type { SessionUser } from "../auth/session";
import { db } from "../db";
import { DIGITS, labelAll } from "./labeling-test-fixture";

const { projectId, annotators } = JSON.parse(process.argv[2]) as { projectId: string; annotators: SessionUser[] };
const truth = (await readNpy(path.join(DIGITS, "labels.npy"))).data as Int32Array;
const errors: string[] = [];
const labeled: Record<string, string[]> = {};
await Promise.all(
  annotators.map(async (user) => {
    try {
      labeled[user.id] = await labelAll(user, projectId, truth);
    } catch (error) {
      errors.push(`${user.email}: ${(error as Error).message}`);
    }
  }),
);
await db().$disconnect();
console.log(JSON.stringify({ labeled, errors }));
