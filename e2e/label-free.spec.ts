import fs from "node:fs";
import path from "node:path";
import { zipSync, type Zippable } from "fflate";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { parseNpy } from "../lib/data/npy";
import { spearman } from "../lib/ace/spearman";
import { ADMIN, signIn } from "./session";

test.use({ viewport: { width: 1440, height: 900 } });

// E2E_SCREENSHOTS=/some/dir saves what a reviewer looks at.
const shots = process.env.E2E_SCREENSHOTS;
const shoot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
};

/**
 * Three of digits-spaces' embedding spaces (two PCAs and pure noise) with their nine k-means
 * clusterings: enough spaces for ACE to weigh, small enough that scoring takes seconds.
 */
const BUNDLE = path.join(process.cwd(), "data", "digits-spaces");
const SPACES = ["pca8", "pca16", "noise"];

function spacesBundle(): Buffer {
  const manifest = JSON.parse(fs.readFileSync(path.join(BUNDLE, "manifest.json"), "utf8"));
  const clusterings = Object.fromEntries(Object.entries(manifest.clusterings as Record<string, { space: string }>).filter(([, c]) => SPACES.includes(c.space)));
  const subset = { ...manifest, name: "digits-3-spaces", embeddings: "spaces/pca16.npy", spaces: Object.fromEntries(SPACES.map((s) => [s, manifest.spaces[s]])), clusterings };
  const files: Zippable = { "bundle/manifest.json": new TextEncoder().encode(JSON.stringify(subset)) };
  for (const file of ["labels.npy", ...SPACES.map((s) => `spaces/${s}.npy`), ...Object.keys(clusterings).map((c) => `clusterings/${c}.npy`)])
    files[`bundle/${file}`] = new Uint8Array(fs.readFileSync(path.join(BUNDLE, file)));
  return Buffer.from(zipSync(files));
}
const truth = parseNpy(new Uint8Array(fs.readFileSync(path.join(BUNDLE, "labels.npy")))).data as Int32Array;

interface Scores {
  name: string;
  paired: number | null;
  ace: number | null;
}

async function readyScores(request: APIRequestContext, projectId: string): Promise<Scores[]> {
  const result = await (await request.post(`/api/projects/${projectId}/label-free?measure=silhouette`)).json();
  expect(result.state).toBe("ready");
  return result.clusterings;
}

/** a score as the ranking shows it: three digits, a value that rounds to zero without its sign */
const shown = (v: number) => (Math.abs(v) < 0.0005 ? 0 : v).toFixed(3);

const ranking = (page: Page) => page.getByRole("region", { name: "Ranking" });
const rowOrder = (page: Page) => ranking(page).getByTestId("ranking-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-clustering")));
const row = (page: Page, name: string) => ranking(page).locator(`[data-testid="ranking-row"][data-clustering="${name}"]`);

test("the owner ranks clusterings label-free, adds a k-means candidate, and reads the agreement with the estimates", async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  const imported = await page.request.post("/api/projects", {
    multipart: { name: "Label-free e2e", bundle: { name: "digits-3-spaces.zip", mimeType: "application/zip", buffer: spacesBundle() } },
  });
  expect(imported.status()).toBe(200);
  const projectId = (await imported.json()).import.projectId as string;
  expect((await page.request.patch(`/api/projects/${projectId}/settings`, { data: { seedSize: 10, batchSize: 5, budget: 40, fixmatchSteps: 16 } })).status()).toBe(200);

  // before any label: the ranking is label-free, and fills in once the worker has scored the clusterings
  await page.goto(`/projects/${projectId}/dashboard`);
  await expect(ranking(page).getByRole("heading")).toContainText("Ranking by ACE");
  await expect(ranking(page)).toContainText("No estimates yet");
  await expect(ranking(page).getByTestId("ranking-row")).toHaveCount(9);
  await expect(page.getByTestId("measure-direction")).toHaveText("↑ higher is better");
  await expect(page.getByTestId("label-free-status")).toBeHidden({ timeout: 120_000 });
  const scores = await readyScores(page.request, projectId);
  const byAce = [...scores].sort((a, b) => b.ace! - a.ace!);
  // rows in ACE order, each with its paired silhouette (in its own space) and its ACE score
  await expect.poll(() => rowOrder(page)).toEqual(byAce.map((s) => s.name));
  for (const s of scores) {
    await expect(row(page, s.name).getByTestId("paired-score")).toHaveText(shown(s.paired!));
    await expect(row(page, s.name).getByTestId("ace-score")).toHaveText(shown(s.ace!));
  }
  // the noise space's clusterings have silhouettes near 0 and rank last
  expect(byAce.slice(-3).map((s) => s.name).sort()).toEqual(["noise_kmeans_k10", "noise_kmeans_k12", "noise_kmeans_k8"]);
  await shoot(page, "label-free-before-labels");

  // Davies-Bouldin: lower is better, shown in its own units (the API sends it negated)
  await page.getByRole("combobox", { name: "Internal measure" }).selectOption("davies-bouldin");
  await expect(page.getByTestId("measure-direction")).toHaveText("↓ lower is better");
  await expect(page.getByTestId("label-free-status")).toBeHidden({ timeout: 120_000 });
  const db = (await (await page.request.post(`/api/projects/${projectId}/label-free?measure=davies-bouldin`)).json()).clusterings as Scores[];
  const pca8k10 = db.find((s) => s.name === "pca8_kmeans_k10")!;
  expect(pca8k10.paired!).toBeLessThan(0);
  await expect(row(page, "pca8_kmeans_k10").getByTestId("paired-score")).toHaveText(shown(-pca8k10.paired!));
  await page.getByRole("combobox", { name: "Internal measure" }).selectOption("silhouette");

  // a k-means candidate on pca8, made by the worker, becomes a tenth row with its own label-free scores
  const form = page.getByRole("form", { name: "Candidate clustering" });
  await form.getByLabel("Space").selectOption("pca8");
  await form.getByLabel("Method").selectOption("kmeans");
  await form.getByLabel("k", { exact: true }).fill("9");
  await form.getByLabel("Seed").fill("1");
  await form.getByRole("button", { name: "Run" }).click();
  const job = page.locator('[data-testid="candidate-job"][data-name="pca8_kmeans_k9_s1"]');
  await expect(job).toHaveAttribute("data-status", "done", { timeout: 120_000 });
  await expect(job).toContainText(/added, 9 clusters in \d+\.\d\d s/);
  await expect(ranking(page).getByTestId("ranking-row")).toHaveCount(10);
  await expect(page.getByTestId("label-free-status")).toBeHidden({ timeout: 120_000 });
  const withCandidate = await readyScores(page.request, projectId);
  const candidate = withCandidate.find((s) => s.name === "pca8_kmeans_k9_s1")!;
  expect(candidate.paired!).toBeGreaterThan(0.2);
  await expect(row(page, candidate.name).getByTestId("paired-score")).toHaveText(shown(candidate.paired!));
  await expect(row(page, candidate.name).getByTestId("ace-score")).toHaveText(shown(candidate.ace!));
  // asking for the same candidate again is refused with the reason
  await form.getByRole("button", { name: "Run" }).click();
  await expect(page.getByTestId("candidate-clusterings").getByRole("alert")).toHaveText("This project already has the clustering 'pca8_kmeans_k9_s1'.");

  // the seed batch, labeled with the truth: round 0 estimates all ten clusterings, the candidate included
  for (let i = 0; i < 10; i++) {
    const next = await (await page.request.post(`/api/projects/${projectId}/tasks/next?count=1`)).json();
    expect(next.tasks, JSON.stringify(next)).toHaveLength(1);
    const item = next.tasks[0].item.index as number;
    const answer = await page.request.post(`/api/projects/${projectId}/labels`, {
      data: { taskId: next.tasks[0].id, kind: "label", classIndex: truth[item], idempotencyKey: `lf-${item}-${Date.now()}` },
    });
    expect(answer.status()).toBe(200);
  }
  await expect(ranking(page)).toContainText("round 0, 10 labels", { timeout: 180_000 });
  const { rounds } = await (await page.request.get(`/api/projects/${projectId}/rounds`)).json();
  const nmi = rounds[0].estimates.filter((e: { metric: string }) => e.metric === "nmi") as { clustering: string; value: number }[];
  expect(nmi.map((e) => e.clustering)).toContain("pca8_kmeans_k9_s1");
  expect(nmi).toHaveLength(10);
  // the agreement the page shows is Spearman's rho between the NMI estimates and ACE, over all ten
  const ace = new Map(withCandidate.map((s) => [s.name, s.ace!]));
  const rho = spearman(nmi.map((e) => e.value), nmi.map((e) => ace.get(e.clustering)!));
  await expect(page.getByTestId("rank-agreement")).toHaveText(`ρ(ACE, NMI) = ${rho.toFixed(2)}`);
  await expect(ranking(page).getByTestId("ace-score")).toHaveCount(10);
  await shoot(page, "label-free-with-estimates");
});
