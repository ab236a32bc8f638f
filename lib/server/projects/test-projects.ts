/** Test support: a real imported project (a generated bundle through importBundle) with members. */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { writeTestBundle, type TestBundleSpec } from "@/lib/data/test-bundles";
import { db } from "../db";
import { importBundle } from "../imports/imports";
import { createTestUser } from "../http/test-requests";

export async function createTestProject(spec: TestBundleSpec = {}, name = "Test project") {
  const owner = await createTestUser("RESEARCHER");
  const annotator = await createTestUser("ANNOTATOR");
  const outsider = await createTestUser("RESEARCHER");
  const dir = await mkdtemp(path.join(os.tmpdir(), "cereal-fixture-"));
  try {
    await writeTestBundle(dir, spec);
    const { projectId } = await importBundle(dir, owner.id, { name });
    await db().projectMember.create({ data: { projectId, userId: annotator.id, role: "ANNOTATOR" } });
    return { projectId, owner, annotator, outsider };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Rows for `count` labels on item 0 (a seed batch with one task), enough for "labels exist" checks. */
export async function addTestLabels(projectId: string, userId: string, count: number) {
  const batch = await db().batch.create({ data: { projectId, index: 0, size: 1 } });
  const task = await db().task.create({ data: { projectId, batchId: batch.id, itemIndex: 0, design: "uniform", q: 0.1, drawOrder: 0 } });
  for (let i = 0; i < count; i++)
    await db().label.create({ data: { projectId, taskId: task.id, userId, kind: "label", classIndex: 0, idempotencyKey: `test-${projectId}-${i}` } });
}
