import { zipSync, type Zippable } from "fflate";
import { expect, test } from "@playwright/test";
import { ESTIMATOR_SUMMARIES } from "../lib/cereal/method/estimator-summaries";
import { encodeNpy } from "../lib/data/npy";
import { clusterIds, embeddingValues } from "../lib/data/test-bundles";
import { ADMIN, signIn } from "./session";

const N = 24;
const D = 8;

/** A small bundle, zipped in memory the way a file manager zips a folder (one top folder). */
function zippedBundle(options: { nanAt?: number } = {}): Buffer {
  const embeddings = embeddingValues(N, D);
  if (options.nanAt !== undefined) embeddings[options.nanAt * D] = Number.NaN;
  const manifest = {
    name: "e2e-bundle",
    N,
    D,
    class_names: ["round", "square", "star"],
    labels: "labels.npy",
    items: "items.jsonl",
    clusterings: { kmeans_k3: { file: "clusterings/kmeans_k3.npy", K: 3 }, kmeans_k4: { file: "clusterings/kmeans_k4.npy", K: 4 } },
  };
  const items = Array.from({ length: N }, (_, i) => JSON.stringify({ id: `doc-${i}`, text: `document number ${i}` })).join("\n") + "\n";
  const files: Zippable = {
    "e2e-bundle/manifest.json": new TextEncoder().encode(JSON.stringify(manifest)),
    "e2e-bundle/embeddings.npy": encodeNpy(embeddings, [N, D]),
    "e2e-bundle/labels.npy": encodeNpy(clusterIds(N, 3), [N]),
    "e2e-bundle/items.jsonl": new TextEncoder().encode(items),
    "e2e-bundle/clusterings/kmeans_k3.npy": encodeNpy(clusterIds(N, 3), [N]),
    "e2e-bundle/clusterings/kmeans_k4.npy": encodeNpy(clusterIds(N, 4), [N]),
  };
  return Buffer.from(zipSync(files));
}

test("a researcher creates a project from a zipped bundle and sees the mapping check", async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.getByRole("link", { name: "New project" }).click();
  await expect(page.getByRole("heading", { name: "New project" })).toBeVisible();
  const form = page.getByRole("form", { name: "New project" });
  await form.getByLabel("Name").fill("Shapes from e2e");
  await form.getByLabel("Annotation mode").selectOption("verify"); // clusterwise, one class at a time
  await form.getByLabel("Choose a .zip").setInputFiles({ name: "e2e-bundle.zip", mimeType: "application/zip", buffer: zippedBundle() });
  await expect(page.getByTestId("chosen-bundle")).toContainText("e2e-bundle.zip");
  await form.getByRole("button", { name: "Upload and import" }).click();

  const check = page.getByRole("region", { name: "Mapping check" });
  await expect(check.getByText("Imported bundle e2e-bundle.")).toBeVisible({ timeout: 30_000 });
  await expect(check.getByText("Items (N)").locator("..")).toContainText("24");
  await expect(check.getByText("Embedding dimensions (D)").locator("..")).toContainText("8");
  await expect(check.getByText("Item kind").locator("..")).toContainText("text");
  await expect(check.getByText("kmeans_k4")).toBeVisible();
  await expect(check.getByText("K = 4")).toBeVisible();
  await expect(check.getByText("star")).toBeVisible();

  await check.getByRole("link", { name: "Open project" }).click();
  await expect(page.getByRole("heading", { name: "Shapes from e2e" })).toBeVisible();

  // a new project starts on the recommended configuration; Random draws uniformly
  await page.goto(`${new URL(page.url()).pathname}/settings`);
  const sampling = page.getByRole("form", { name: "Project settings" });
  await expect(page.getByTestId("recommended-configuration")).toHaveText("The recommended configuration");
  await expect(sampling.getByLabel("Acquisition function")).toHaveValue("hardnmi");
  await expect(sampling.getByLabel("Sampling design")).toHaveValue("proportional");
  await expect(sampling.getByRole("combobox", { name: /^Estimator/ })).toHaveValue("guarded");
  await expect(sampling.getByText(ESTIMATOR_SUMMARIES.guarded.estimate)).toBeVisible();
  await sampling.getByRole("combobox", { name: /^Estimator/ }).selectOption("argmax");
  await expect(sampling.getByText(ESTIMATOR_SUMMARIES.argmax.estimate)).toBeVisible();
  await sampling.getByLabel("Acquisition function").selectOption("random");
  await expect(sampling.getByLabel("Sampling design")).toHaveValue("uniform");
  await expect(sampling.getByLabel("Sampling design").locator("option")).toHaveText(["uniform"]);
  await sampling.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await page.reload();
  await expect(sampling.getByLabel("Sampling design")).toHaveValue("uniform");
  await sampling.getByRole("button", { name: "Use the recommended configuration" }).click();
  await expect(sampling.getByLabel("Sampling design")).toHaveValue("proportional");
  await expect(sampling.getByRole("combobox", { name: /^Estimator/ })).toHaveValue("guarded");
  await sampling.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await expect(page.getByTestId("recommended-configuration")).toBeVisible();
  // a pairwise project (no labels yet, so the mode may change) also chooses its pair design, and asks no class
  await expect(sampling.getByLabel("Ask for a class")).toHaveValue("verify");
  await expect(sampling.getByLabel("Pair design")).toHaveCount(0);
  await sampling.getByLabel("Annotation mode").selectOption("pairwise");
  await expect(sampling.getByLabel("Ask for a class")).toHaveCount(0);
  await expect(sampling.getByLabel("Pair design")).toHaveValue("random");
  await sampling.getByLabel("Pair design").selectOption("anchor");
  await sampling.getByLabel("Uniform share of a pair stage").fill("0.25");
  await sampling.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved.")).toBeVisible();
  await page.reload();
  await expect(sampling.getByLabel("Pair design")).toHaveValue("anchor");
  await expect(sampling.getByLabel("Uniform share of a pair stage")).toHaveValue("0.25");

  await page.goto("/projects");
  await expect(page.getByRole("link", { name: /Shapes from e2e/ })).toContainText("0 / 1,000 labels");
});

test("a broken bundle shows the validator's message verbatim and creates nothing", async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto("/projects/new");
  const form = page.getByRole("form", { name: "New project" });
  await form.getByLabel("Name").fill("Broken bundle");
  await form.getByLabel("Choose a .zip").setInputFiles({ name: "broken.zip", mimeType: "application/zip", buffer: zippedBundle({ nanAt: 5 }) });
  await form.getByRole("button", { name: "Upload and import" }).click();
  await expect(form.getByRole("alert")).toContainText("embeddings.npy: item 5, column 0 is NaN; embeddings must be finite (fix or drop that item).");
  await page.goto("/projects");
  await expect(page.getByRole("link", { name: /Broken bundle/ })).toHaveCount(0);
});

test("an owner creates an invite link; a new annotator accepts it and lands in the project", async ({ page, browser }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  const { projects } = await (await page.request.get("/api/projects")).json();
  const demo = projects.find((p: { name: string }) => p.name === "Fashion demo");
  await page.goto(`/projects/${demo.id}`);
  await page.getByRole("navigation", { name: "Project administration" }).getByRole("link", { name: "Members" }).click();
  await page.getByRole("form", { name: "Create an invite link" }).getByRole("button", { name: "Create link" }).click();
  const link = await page.getByLabel("Invite link", { exact: true }).inputValue();
  expect(link).toMatch(/\/invite\/[\w-]{43}$/);

  const context = await browser.newContext();
  const invitee = await context.newPage();
  await invitee.goto(link);
  await expect(invitee.getByRole("heading", { name: "Join Fashion demo" })).toBeVisible();
  const email = `invitee-${Date.now()}@example.org`;
  const form = invitee.getByRole("form", { name: "Create your account" });
  await form.getByLabel("Name").fill("Ivy Invitee");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill("invitee-password");
  await form.getByRole("button", { name: "Create account and join" }).click();
  await expect(invitee.getByRole("heading", { name: "Fashion demo" })).toBeVisible();
  await expect(invitee.getByTestId("current-user")).toContainText("Ivy Invitee");
  await context.close();

  await page.reload();
  await expect(page.getByRole("cell", { name: email, exact: true })).toBeVisible();
});
