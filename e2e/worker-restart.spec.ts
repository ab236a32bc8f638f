import path from "node:path";
import { zipSync } from "fflate";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { encodeNpy } from "../lib/data/npy";
import { clusterIds, embeddingValues } from "../lib/data/test-bundles";
import { ADMIN, signIn } from "./session";
import { allSaved, answerWith, exportedLabels, workspace, type Answered } from "./workspace";

/**
 * Issue 18: the worker dies (SIGKILL) while it trains a round; `npm start`'s supervisor restarts
 * it and hands the round to the new worker at once, and the annotator on the label page goes on
 * labeling throughout: every answer is saved and exported.
 */
function query<T>(sql: string, ...args: unknown[]): T[] {
  const db = new Database(path.join(process.env.CEREAL_DATA_DIR!, "cereal.db"), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...args) as T[];
  } finally {
    db.close();
  }
}
interface RoundJob {
  status: string;
  leaseOwner: string | null;
  releases: number;
}
const roundJob = (projectId: string) => query<RoundJob>("SELECT status, leaseOwner, releases FROM Job WHERE projectId = ? AND kind = 'round' ORDER BY createdAt", projectId)[0];
const liveWorkers = () => query<{ id: string; pid: number }>("SELECT id, pid FROM WorkerHeartbeat WHERE stoppedAt IS NULL ORDER BY startedAt DESC");

/** 400 short notes in three kinds, as text items. */
function notesBundle(): Buffer {
  const n = 400;
  const kinds = ["bird", "tree", "stone"];
  const manifest = { name: "field-notes", N: n, D: 16, class_names: kinds, items: "items.jsonl", clusterings: { kmeans_k3: { file: "clusterings/kmeans_k3.npy", K: 3 } } };
  const items = Array.from({ length: n }, (_, i) => JSON.stringify({ id: `note-${i}`, text: `Field note ${i}: a ${kinds[i % 3]} by the river.` })).join("\n") + "\n";
  const encode = (text: string) => new TextEncoder().encode(text);
  return Buffer.from(
    zipSync({
      "field-notes/manifest.json": encode(JSON.stringify(manifest)),
      "field-notes/embeddings.npy": encodeNpy(embeddingValues(n, 16), [n, 16]),
      "field-notes/items.jsonl": encode(items),
      "field-notes/clusterings/kmeans_k3.npy": encodeNpy(clusterIds(n, 3), [n]),
    }),
  );
}

test("the label page keeps working while the worker is killed during a round and restarted, and the new worker takes the round over", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  const upload = await page.request.post("/api/projects", {
    multipart: { name: "Field notes (worker restart)", description: "", mode: "clusterwise", bundle: { name: "notes.zip", mimeType: "application/zip", buffer: notesBundle() } },
  });
  expect(upload.status()).toBe(200);
  const id = ((await upload.json()) as { import: { projectId: string } }).import.projectId;
  // a round long enough to kill the worker in it; batches large enough that no second round starts meanwhile
  const settings = await page.request.patch(`/api/projects/${id}/settings`, { data: { seedSize: 6, batchSize: 100, fixmatch: true, fixmatchSteps: 20_000, estimator: "argmax" } });
  expect(settings.status()).toBe(200);

  await page.goto(`/projects/${id}/label`);
  await expect(workspace(page)).toBeVisible();
  const answered: Answered[] = [];
  for (let i = 0; i < 6; i++) answered.push(await answerWith(page, String((i % 3) + 1)));
  await expect.poll(() => roundJob(id)?.status, { timeout: 60_000 }).toBe("running");
  const before = roundJob(id);
  // npm start runs a worker per lane: the one of the rounds lane holds the round
  const workers = liveWorkers();
  expect(workers).toHaveLength(2);
  const dying = workers.find((w) => w.id === before.leaseOwner)!;
  expect(dying).toBeDefined();

  process.kill(dying.pid, "SIGKILL");
  // labeling goes on while the worker is dead and while it restarts
  for (let i = 0; i < 4; i++) answered.push(await answerWith(page, String((i % 3) + 1)));
  await expect.poll(() => liveWorkers().filter((w) => w.pid !== dying.pid).length, { timeout: 60_000 }).toBe(2);
  // handed back at once (not after the 60 s lease) and running again under the new worker (the last one started)
  await expect.poll(() => roundJob(id), { timeout: 60_000 }).toMatchObject({ status: "running", releases: 1, leaseOwner: liveWorkers()[0].id });
  for (let i = 0; i < 3; i++) answered.push(await answerWith(page, String((i % 3) + 1)));
  await allSaved(page);

  const rows = await exportedLabels(page, id);
  expect(rows).toHaveLength(answered.length);
  expect(new Set(rows.map((r) => r.item_index))).toEqual(new Set(answered.map((a) => a.itemIndex)));
  expect(query("SELECT id FROM WorkerHeartbeat WHERE id = ? AND stoppedAt IS NOT NULL", dying.id)).toHaveLength(1);
});
