import { expect, test } from "@playwright/test";
import { demoSubsetBundle, demoTruth } from "./demo-subset";
import { ADMIN, signIn } from "./session";
import { allSaved, answerWith, currentTask, exportedLabels, workspace } from "./workspace";

// Runs on PostgreSQL only (`node --import tsx bin/e2e.ts --postgresql`, in npm test when a server
// answers): the app started with DATABASE_URL=postgresql://... on a fresh schema.
test.use({ viewport: { width: 1440, height: 900 } });

const N = 200;
const truth = demoTruth(N);
const CLASS_KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"];

test("on PostgreSQL: import a bundle, label the seed batch by keyboard, a round runs, the dashboard ranks, the export holds every label", async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  const imported = await page.request.post("/api/projects", {
    multipart: { name: "PostgreSQL loop", bundle: { name: "fashion-200.zip", mimeType: "application/zip", buffer: demoSubsetBundle(N) } },
  });
  expect(imported.status()).toBe(200);
  const projectId = (await imported.json()).import.projectId as string;
  expect((await page.request.patch(`/api/projects/${projectId}/settings`, { data: { seedSize: 10, batchSize: 5, budget: 20, fixmatchSteps: 32 } })).status()).toBe(200);

  await page.goto(`/projects/${projectId}/label`);
  await expect(workspace(page)).toBeVisible();
  const given = new Map<number, number>();
  while (given.size < 10) {
    const task = await currentTask(page);
    expect(task.stage).toBe(0);
    await answerWith(page, CLASS_KEYS[truth[task.itemIndex]]);
    given.set(task.itemIndex, truth[task.itemIndex]);
  }
  await allSaved(page);

  // the seed batch's last label queues round 0; the worker trains and stores it on PostgreSQL
  await page.goto(`/projects/${projectId}/dashboard`);
  await expect(page.getByRole("heading", { name: "PostgreSQL loop" })).toBeVisible();
  const ranking = page.getByRole("region", { name: "Ranking" });
  await expect(ranking).toContainText("round 0, 10 labels", { timeout: 180_000 });
  await expect(ranking.getByTestId("ranking-row")).toHaveCount(3);
  const { rounds } = await (await page.request.get(`/api/projects/${projectId}/rounds`)).json();
  expect(rounds.map((r: { status: string }) => r.status)).toEqual(["done"]);

  const rows = await exportedLabels(page, projectId);
  expect(rows.filter((r) => r.batch === 0).map((r) => [r.item_index, r.class_index]).sort((a, b) => a[0]! - b[0]!)).toEqual([...given.entries()].sort((a, b) => a[0] - b[0]));
  expect(rows.every((r) => r.kind === "label" && r.annotator === ADMIN.email)).toBe(true);
});
