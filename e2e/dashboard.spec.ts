import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parse } from "csv-parse/sync";
import { unzipSync } from "fflate";
import { parquetReadObjects } from "hyparquet";
import { expect, test, type APIRequestContext, type Download, type Page } from "@playwright/test";
import { ESTIMATOR_SUMMARIES } from "../lib/cereal/method/estimator-summaries";
import { RECOMMENDED } from "../lib/cereal/method/recommended";
import { roundEstimate } from "../lib/report/interval-rounding";
import { DEMO, demoSubsetBundle, demoTruth } from "./demo-subset";
import { ADMIN, signIn } from "./session";

// One project for the whole file, built step by step: the specs run in order.
test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1440, height: 900 } });

// E2E_SCREENSHOTS=/some/dir saves what a reviewer looks at.
const shots = process.env.E2E_SCREENSHOTS;
const shoot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: name.endsWith("full") });
};

const N = 300;
const truth = demoTruth(N);

let projectId = "";
const annotator = { email: `dash-annotator-${Date.now()}@example.org`, password: "annotator-pass" };
/** What the annotator answered, by item: the truth, so estimates mean something. */
const given = new Map<number, number>();

async function labelTasks(request: APIRequestContext, count: number) {
  for (let i = 0; i < count; i++) {
    const next = await (await request.post(`/api/projects/${projectId}/tasks/next?count=1`)).json();
    expect(next.tasks, JSON.stringify(next)).toHaveLength(1);
    const item = next.tasks[0].item.index as number;
    const answer = await request.post(`/api/projects/${projectId}/labels`, {
      data: { taskId: next.tasks[0].id, kind: "label", classIndex: truth[item], idempotencyKey: `dash-${item}-${Date.now()}` },
    });
    expect(answer.status()).toBe(200);
    given.set(item, truth[item]);
  }
}

const ranking = (page: Page) => page.getByRole("region", { name: "Ranking" });

async function saved(download: Download): Promise<Buffer> {
  return fs.readFileSync((await download.path())!);
}

async function exportFile(page: Page, label: string): Promise<Buffer> {
  await page.getByText("Export ▾").click();
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: label, exact: true }).click()]);
  return saved(download);
}

const csvRows = (text: string) => parse(text, { columns: true }) as Record<string, string>[];

test("the owner watches estimates appear and update live while an annotator labels", async ({ page, browser }) => {
  test.setTimeout(300_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  const imported = await page.request.post("/api/projects", {
    multipart: { name: "Dashboard e2e", bundle: { name: "fashion-300.zip", mimeType: "application/zip", buffer: demoSubsetBundle(N) } },
  });
  expect(imported.status()).toBe(200);
  projectId = (await imported.json()).import.projectId;
  const settings = await page.request.patch(`/api/projects/${projectId}/settings`, { data: { seedSize: 10, batchSize: 5, budget: 40, fixmatchSteps: 32 } });
  expect(settings.status()).toBe(200);
  expect((await page.request.post("/api/admin/users", { data: { ...annotator, name: "Ann Otator", role: "ANNOTATOR" } })).status()).toBe(200);
  expect((await page.request.post(`/api/projects/${projectId}/members`, { data: { email: annotator.email } })).status()).toBe(200);

  await page.goto(`/projects/${projectId}/dashboard`);
  await expect(page.getByRole("heading", { name: "Dashboard e2e" })).toBeVisible();
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-live", "true");
  await expect(ranking(page)).toContainText("No estimates yet");

  const context = await browser.newContext();
  const other = await context.newPage();
  await signIn(other, annotator.email, annotator.password);

  // the seed stage: its last label queues round 0; the worker trains the surrogate for real
  await labelTasks(other.request, 10);
  await expect(page.getByTestId("label-count")).toHaveText("10 / 40");
  // the rows are there before any estimate (ranked label-free), so wait for the round itself
  await expect(ranking(page)).toContainText("round 0, 10 labels", { timeout: 120_000 });
  await expect(ranking(page).getByTestId("ranking-row")).toHaveCount(3);
  const firstNmi = await ranking(page).getByTestId("estimate").allTextContents();
  await shoot(page, "dashboard-round0");

  // the next stage: round 1 updates the ranking in place (no reload)
  await labelTasks(other.request, 5);
  await shoot(page, "dashboard-round1-running");
  await expect(ranking(page)).toContainText("round 1, 15 labels", { timeout: 120_000 });
  const { rounds } = await (await page.request.get(`/api/projects/${projectId}/rounds`)).json();
  expect(rounds.map((r: { status: string }) => r.status)).toEqual(["done", "done"]);
  const nmiNow = rounds[1].estimates.filter((e: { metric: string }) => e.metric === "nmi").sort((a: { value: number }, b: { value: number }) => b.value - a.value);
  await expect(ranking(page).getByTestId("estimate")).toHaveText(nmiNow.map((e: { value: number }) => e.value.toFixed(3)));
  expect(firstNmi).toHaveLength(3);
  await expect(page.getByTestId("round-row")).toHaveCount(2);
  // the estimator behind the numbers; stage 1 was drawn (uniformly) before round 0 had a model, so no
  // model has been measured out of sample yet (round 2 below measures round 0's on the stage it drew)
  await expect(page.getByTestId("round-estimator")).toHaveText(/^Estimates from the guarded estimator\.?$/);
  // and under the ranking, what its estimate and interval are
  await expect(ranking(page).getByTestId("estimator-summary")).toHaveText(`Estimate (guarded): ${ESTIMATOR_SUMMARIES.guarded.estimate} Interval and P(best): ${ESTIMATOR_SUMMARIES.guarded.interval}`);
  await shoot(page, "dashboard");
  await shoot(page, "dashboard-full");
  await context.close();
});

test("the owner switches metric and clustering and reads the heatmap", async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`/projects/${projectId}/dashboard`);
  const { rounds } = await (await page.request.get(`/api/projects/${projectId}/rounds`)).json();
  const ari = rounds[1].estimates.filter((e: { metric: string }) => e.metric === "ari").sort((a: { value: number }, b: { value: number }) => b.value - a.value);
  await page.getByRole("tab", { name: "ARI" }).click();
  await expect(ranking(page).getByRole("heading")).toContainText("Ranking by ARI");
  await expect(ranking(page).getByTestId("estimate")).toHaveText(ari.map((e: { value: number }) => e.value.toFixed(3)));
  await expect(ranking(page).getByTestId("ranking-row").first()).toHaveAttribute("data-clustering", ari[0].clustering);

  await page.getByRole("combobox", { name: "Clustering" }).selectOption("kmeans_k5");
  const heatmap = page.getByTestId("heatmap");
  await expect(heatmap.getByTestId("heatmap-row")).toHaveCount(10);
  await expect(heatmap.getByTestId("heatmap-row").first().locator("td")).toHaveCount(5);
  const view = await (await page.request.get(`/api/projects/${projectId}/contingency?clustering=kmeans_k5`)).json();
  expect(view.labeled + view.pseudoLabeled).toBe(N);
  await expect(heatmap.getByTestId("heatmap-ap")).toHaveText(view.ap.toFixed(3));
  await expect(heatmap.getByTestId("heatmap-a")).toHaveText(view.associativity.toFixed(3));
  await expect(heatmap.getByTestId("heatmap-p")).toHaveText(view.peakiness.toFixed(3));
  // one boxed cell per class with mass (ties box each tied cell)
  const boxed = view.rowMaxima.reduce((s: number, r: number[]) => s + r.length, 0);
  await expect(heatmap.locator("td[data-boxed]")).toHaveCount(boxed);
  // the cells the API counts are the cells on screen
  const firstRow = await heatmap.getByTestId("heatmap-row").first().locator("td").allTextContents();
  expect(firstRow.map((t) => (t === "" ? 0 : Number(t)))).toEqual(view.cells[0]);
  await shoot(page, "dashboard-ari-k5");

  // a cell opens its items: as many as it counts, labels marked, 24 at a time
  const count = Math.max(...view.cells.flat());
  const c = view.cells.findIndex((row: number[]) => row.includes(count));
  const k = view.cells[c].indexOf(count);
  expect(count).toBeGreaterThan(24);
  await heatmap.getByTestId("heatmap-row").nth(c).locator("td").nth(k).getByRole("button").click();
  const cell = page.getByTestId("cell-items");
  await expect(cell.getByRole("heading")).toHaveText(`${view.classes[c]} in cluster ${k} · ${count} items`);
  await expect(cell.getByTestId("cell-item")).toHaveCount(24);
  await cell.getByRole("button", { name: `Show more (${count - 24} left)` }).click();
  await expect(cell.getByTestId("cell-item")).toHaveCount(Math.min(48, count));
  const { items } = await (await page.request.get(`/api/projects/${projectId}/items?clustering=kmeans_k5&cluster=${k}&class=${c}&limit=48`)).json();
  await expect(cell.locator("[data-testid=cell-item][data-labeled=true]")).toHaveCount(items.filter((i: { labeled: boolean }) => i.labeled).length);
  await shoot(page, "dashboard-cell-items");
  await cell.getByRole("button", { name: "Close the cell's items" }).click();
  await expect(cell).toBeHidden();

  // pause and resume through the settings API; the button follows the live snapshot
  await page.getByRole("button", { name: "Pause" }).click();
  await expect(page.getByText("paused", { exact: true })).toBeVisible();
  expect((await (await page.request.get(`/api/projects/${projectId}/progress`)).json()).paused).toBe(true);
  await page.getByRole("button", { name: "Resume" }).click();
  await expect(page.getByRole("button", { name: "Pause" })).toBeVisible();
  expect((await (await page.request.get(`/api/projects/${projectId}/progress`)).json()).paused).toBe(false);
});

test("the owner downloads every export, whose rows equal the labels given, and a correction shows in the next export", async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`/projects/${projectId}/dashboard`);
  const expected = [...given.entries()].map(([item, cls]) => [item, cls]).sort((a, b) => a[0] - b[0]);
  const pairs = (rows: Record<string, unknown>[]) => rows.map((r) => [Number(r.item_index), Number(r.class_index)]).sort((a, b) => a[0] - b[0]);

  const csv = csvRows((await exportFile(page, "Labels (CSV)")).toString("utf8"));
  expect(csv).toHaveLength(15);
  expect(pairs(csv)).toEqual(expected);
  expect(new Set(csv.map((r) => r.annotator))).toEqual(new Set([annotator.email]));

  const jsonl = (await exportFile(page, "Labels (JSONL)")).toString("utf8").trim().split("\n").map((l) => JSON.parse(l));
  expect(pairs(jsonl)).toEqual(expected);

  const parquetBytes = await exportFile(page, "Labels (Parquet)");
  const parquet = await parquetReadObjects({ file: parquetBytes.buffer.slice(parquetBytes.byteOffset, parquetBytes.byteOffset + parquetBytes.byteLength) as ArrayBuffer });
  expect(pairs(parquet)).toEqual(expected);

  const classNames = JSON.parse(fs.readFileSync(path.join(DEMO, "manifest.json"), "utf8")).class_names as string[];
  const items = csvRows((await exportFile(page, "Items + pseudo-labels (CSV)")).toString("utf8"));
  expect(items).toHaveLength(N);
  expect(items.filter((r) => r.label !== "").map((r) => [Number(r.item_index), classNames.indexOf(r.label)]).sort((a, b) => a[0] - b[0])).toEqual(expected);

  const estimates = csvRows((await exportFile(page, "Estimate history (CSV)")).toString("utf8"));
  expect(estimates).toHaveLength(2 * 3 * 7);
  expect(new Set(estimates.map((r) => r.n_labels))).toEqual(new Set(["10", "15"]));

  const config = JSON.parse((await exportFile(page, "Configuration (JSON)")).toString("utf8"));
  expect(config.settings).toMatchObject({ seedSize: 10, batchSize: 5, budget: 40 });

  // correct the newest label to another class, then export again
  const newest = page.getByTestId("recent-label").first();
  const item = Number(await newest.getAttribute("data-item"));
  const corrected = (given.get(item)! + 1) % 10;
  await newest.getByRole("combobox").selectOption(String(corrected));
  await expect(newest.getByRole("combobox")).toHaveValue(String(corrected));
  await expect.poll(async () => {
    const rows = csvRows((await (await page.request.get(`/api/projects/${projectId}/exports/labels?format=csv`)).text()));
    return rows.find((r) => Number(r.item_index) === item)?.class_index;
  }).toBe(String(corrected));
  const again = csvRows((await exportFile(page, "Labels (CSV)")).toString("utf8"));
  given.set(item, corrected);
  expect(pairs(again)).toEqual([...given.entries()].sort((a, b) => a[0] - b[0]));
});

test("the owner downloads the report: its table holds the dashboard's ranking, its page opens offline, its PDF is printed", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`/projects/${projectId}/dashboard`);
  await expect(ranking(page).getByTestId("ranking-row")).toHaveCount(3);
  const onScreen = await ranking(page).getByTestId("ranking-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-clustering")));
  const files = unzipSync(new Uint8Array(await exportFile(page, "Report: figures, tables, PDF (.zip)")));
  const text = (name: string) => new TextDecoder().decode(files[name]);

  const { rounds } = await (await page.request.get(`/api/projects/${projectId}/rounds`)).json();
  const nmi = rounds[1].estimates.filter((e: { metric: string }) => e.metric === "nmi").sort((a: { value: number }, b: { value: number }) => b.value - a.value);
  const table = csvRows(text("tables/ranking-nmi.csv"));
  expect(table.map((r) => r.clustering)).toEqual(onScreen);
  expect(table.map((r) => [r.estimate, r.lo, r.hi, r.labels])).toEqual(
    nmi.map((e: { value: number; lo: number; hi: number }) => {
      const r = roundEstimate(e.value, e.lo, e.hi);
      return [r.estimate, r.lo, r.hi, "15"];
    }),
  );
  expect(text("tables/ranking-nmi.tex")).toContain("kmeans\\_k10");
  // the label corrected in the previous test is flagged for whoever recomputes round 1
  expect(JSON.parse(text("report.json")).notes.join(" ")).toMatch(/1 label was corrected by the owner: a round that ran before a correction saw the old value/);
  expect(new TextDecoder().decode(files["report.pdf"].subarray(0, 5))).toBe("%PDF-");
  expect([...files["figures/convergence.png"].subarray(0, 4)]).toEqual([137, 80, 78, 71]);

  // the page alone, offline: nothing is fetched but the file itself
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cereal-report-e2e-"));
  fs.writeFileSync(path.join(dir, "report.html"), files["report.html"]);
  const offline = await browser.newContext({ offline: true });
  const reader = await offline.newPage();
  const requested: string[] = [];
  reader.on("request", (r) => requested.push(r.url()));
  await reader.goto(pathToFileURL(path.join(dir, "report.html")).href);
  expect(requested).toEqual([pathToFileURL(path.join(dir, "report.html")).href]);
  await expect(reader.locator("#convergence svg")).toBeVisible();
  await expect(reader.locator("#heatmap svg")).toBeVisible();
  await expect(reader.locator("table.ranking").first().locator("tbody tr")).toHaveCount(3);
  await expect(reader.locator("table.ranking").first().locator("tbody tr").first()).toHaveAttribute("data-clustering", onScreen[0]!);
  if (shots) await reader.screenshot({ path: `${shots}/report-page.png`, fullPage: true });
  await offline.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("an annotator cannot open the dashboard and sees estimates only where the owner allows it", async ({ page, browser }) => {
  const context = await browser.newContext();
  const other = await context.newPage();
  await signIn(other, annotator.email, annotator.password);
  const denied = await other.goto(`/projects/${projectId}/dashboard`);
  expect(denied?.status()).toBe(403);
  await expect(other.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
  for (const api of ["contingency?clustering=kmeans_k5", "label-overview", "true-metrics", "stop-rule", "exports/labels?format=csv"]) {
    expect((await other.request.get(`/api/projects/${projectId}/${api}`)).status(), api).toBe(403);
  }

  await other.goto(`/projects/${projectId}`);
  await expect(other.getByRole("heading", { name: "Dashboard e2e" })).toBeVisible();
  await expect(other.getByTestId("estimates-summary")).toHaveCount(0);
  expect((await (await other.request.get(`/api/projects/${projectId}/progress`)).json()).estimates).toBeNull();

  await signIn(page, ADMIN.email, ADMIN.password);
  expect((await page.request.patch(`/api/projects/${projectId}/settings`, { data: { annotatorsSeeEstimates: true } })).status()).toBe(200);
  await other.reload();
  await expect(other.getByTestId("estimates-summary")).toContainText("NMI after round 1 (15 labels)");
  await expect(other.getByTestId("estimates-summary").locator("tr")).toHaveCount(3);
  await shoot(other, "project-page-annotator");
  expect((await other.goto(`/projects/${projectId}/dashboard`))?.status()).toBe(403);
  await context.close();
});

test("the owner watches a round train, cancels it, and retries it", async ({ page, browser }) => {
  test.setTimeout(240_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  // a long FixMatch schedule from scratch (no warm start) with the paper's estimator (the guarded
  // one may train supervised instead), so the round is still training when the owner looks
  expect((await page.request.patch(`/api/projects/${projectId}/settings`, { data: { fixmatchSteps: 400, fixmatchWarmSteps: null, fixmatch: true, estimator: "argmax" } })).status()).toBe(200);
  await page.goto(`/projects/${projectId}/dashboard`);
  const context = await browser.newContext();
  const other = await context.newPage();
  await signIn(other, annotator.email, annotator.password);
  await labelTasks(other.request, 5);
  await context.close();

  const status = page.getByTestId("round-status");
  await expect(status).toContainText("Round 2 training", { timeout: 60_000 });
  await expect(status).toContainText("steps/s", { timeout: 30_000 });
  await expect(status).toContainText(/\d+\/400 steps/);
  await shoot(page, "dashboard-training");
  await page.getByRole("button", { name: "Cancel round 2" }).click();
  const cancelled = page.locator('[data-testid="round-row"][data-status="cancelled"]');
  await expect(cancelled).toHaveCount(1);
  await expect(page.getByRole("region", { name: "Rounds" })).toContainText("Cancelled by the owner.");
  await expect(status).not.toContainText("training");
  await shoot(page, "dashboard-cancelled");

  // the retry runs with the settings of now: a short schedule again
  expect((await page.request.patch(`/api/projects/${projectId}/settings`, { data: { fixmatchSteps: 32 } })).status()).toBe(200);
  await page.getByRole("button", { name: "Retry" }).click();
  await expect(ranking(page)).toContainText("round 2, 20 labels", { timeout: 180_000 });
  await expect(page.locator('[data-testid="round-row"][data-status="done"]')).toHaveCount(3);
  // stage 2 was drawn with round 0's ranking: round 0's model is measured on it, out of sample
  await expect(page.getByTestId("round-estimator")).toContainText(/Estimates from the argmax estimator; surrogate \d+% right on new labels, calibration error \d\.\d\d\./);
  await expect(cancelled).toHaveCount(0);
});

test("the owner runs an oracle simulation and reads its curves and AEC table", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`/projects/${projectId}/dashboard`);
  await page.getByRole("link", { name: "Simulation" }).click();
  await expect(page.getByRole("heading", { name: "Simulation · Dashboard e2e" })).toBeVisible();
  const form = page.getByRole("form", { name: "New simulation" });
  // the preset fills in the recommended configuration, its FixMatch steps included
  await form.getByRole("button", { name: "Recommended" }).click();
  await expect(form.getByLabel("Acquisition")).toHaveValue(RECOMMENDED.acquisition);
  await expect(form.getByLabel("Design")).toHaveValue(RECOMMENDED.design);
  await expect(form.getByLabel("Estimator")).toHaveValue(RECOMMENDED.estimator);
  await expect(form.getByLabel("Train steps")).toHaveValue(String(RECOMMENDED.fixmatchSteps));
  await expect(form.getByLabel("FixMatch")).toBeChecked();
  await expect(form.getByLabel("Trainer guard")).toBeChecked();
  // a quick oracle run instead
  await form.getByLabel("FixMatch").uncheck();
  await form.getByLabel("Trainer guard").uncheck();
  await form.getByLabel("Estimator").selectOption("argmax");
  await form.getByLabel("Acquisition").selectOption("random");
  await form.getByLabel("Seed batch").fill("20");
  await form.getByLabel("Batch", { exact: true }).fill("20");
  await form.getByLabel("Budget").fill("60");
  await form.getByLabel("Train steps").fill("16");
  await form.getByRole("button", { name: "Run simulation" }).click();
  await expect(page.getByTestId("simulation-run").first()).toHaveAttribute("data-status", "done", { timeout: 150_000 });
  const { simulations } = await (await page.request.get(`/api/projects/${projectId}/simulations`)).json();
  expect(simulations[0].options).toMatchObject({ acquisition: "random", seedSize: 20, batch: 20, budget: 60, steps: 16 });
  const table = page.getByTestId("aec-table");
  await expect(table).toContainText(simulations[0].summary.aec.nmi.toFixed(4));
  await expect(table.locator("tbody tr")).toHaveCount(2 + 3 + (simulations[0].summary.intervalCoverage ? 1 : 0));
  await shoot(page, "simulation");

  // the same project simulated pairwise: the reference labels answer same/different for the pairs drawn
  await form.getByLabel("Mode").selectOption("pairwise");
  await expect(form.getByLabel("Acquisition")).toHaveCount(0);
  await expect(form.getByLabel("Pair design")).toHaveValue("random");
  await form.getByLabel("Seed batch").fill("40");
  await form.getByLabel("Batch", { exact: true }).fill("40");
  await form.getByLabel("Budget").fill("80");
  await form.getByRole("button", { name: "Run simulation" }).click();
  await expect(page.getByTestId("simulation-run").first()).toContainText("pairwise · random pairs");
  await expect(page.getByTestId("simulation-run").first()).toHaveAttribute("data-status", "done", { timeout: 150_000 });
  const pairwise = (await (await page.request.get(`/api/projects/${projectId}/simulations`)).json()).simulations[0];
  expect(pairwise.options).toMatchObject({ mode: "pairwise", pairDesign: "random", seedSize: 40, batch: 40, budget: 80 });
  await expect(table).toContainText(pairwise.summary.aec.nmi.toFixed(4));
});
