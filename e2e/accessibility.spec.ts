import { expect, test, type Browser, type Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { demoSubsetBundle, demoTruth } from "./demo-subset";
import { ADMIN, signIn } from "./session";
import { workspace } from "./workspace";

// Every page scanned with axe-core at WCAG 2.1 A and AA, as the owner and as an annotator, on
// projects of their own (one per mode) so the workspace specs' demo projects stay untouched.
test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1280, height: 720 } });

const N = 120;
const truth = demoTruth(N);
const annotator = { email: `a11y-annotator-${Date.now()}@example.org`, password: "annotator-pass" };
const ids = { clusterwise: "", pairwise: "" };

async function importProject(page: Page, name: string, mode: "clusterwise" | "pairwise") {
  const imported = await page.request.post("/api/projects", {
    multipart: { name, mode, bundle: { name: "fashion.zip", mimeType: "application/zip", buffer: demoSubsetBundle(N) } },
  });
  expect(imported.status()).toBe(200);
  const id = (await imported.json()).import.projectId as string;
  expect((await page.request.patch(`/api/projects/${id}/settings`, { data: { seedSize: 10, batchSize: 5, budget: 40, fixmatchSteps: 32 } })).status()).toBe(200);
  expect((await page.request.post(`/api/projects/${id}/members`, { data: { email: annotator.email } })).status()).toBe(200);
  return id;
}

async function asAnnotator(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await signIn(page, annotator.email, annotator.password);
  return page;
}

/** The workspace once it shows an item, then with its help dialog open. */
async function scanWorkspace(page: Page, id: string, who: string) {
  await page.goto(`/projects/${id}/label`);
  await expect(workspace(page)).toHaveAttribute("data-armed", "true");
  await expectAccessible(page, `${who}: label page (${id === ids.pairwise ? "pairwise" : "clusterwise"})`);
  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keys, classes and guidelines" })).toBeVisible();
  await expectAccessible(page, `${who}: help dialog`);
  await page.keyboard.press("Escape");
}

test("the owner's pages have no WCAG 2.1 A or AA violations", async ({ page, browser }) => {
  test.setTimeout(240_000);
  await page.goto("/signin");
  await expectAccessible(page, "sign-in");
  await signIn(page, ADMIN.email, ADMIN.password);
  expect((await page.request.post("/api/admin/users", { data: { ...annotator, name: "Ada Annotator", role: "ANNOTATOR" } })).status()).toBe(200);
  ids.clusterwise = await importProject(page, "Accessibility", "clusterwise");
  ids.pairwise = await importProject(page, "Accessibility (pairwise)", "pairwise");

  // the seed batch labeled with the truth, so the dashboard has a round's charts to scan
  const other = await asAnnotator(browser);
  for (let i = 0; i < 10; i++) {
    const { tasks } = await (await other.request.get(`/api/projects/${ids.clusterwise}/tasks/next?count=1`)).json();
    const answer = { taskId: tasks[0].id, kind: "label", classIndex: truth[tasks[0].item.index], idempotencyKey: `a11y-${i}-${Date.now()}` };
    expect((await other.request.post(`/api/projects/${ids.clusterwise}/labels`, { data: answer })).status()).toBe(200);
  }
  await other.context().close();

  await page.goto("/projects");
  await expectAccessible(page, "projects");
  await page.goto("/projects/new");
  await expectAccessible(page, "new project");
  await page.goto(`/projects/${ids.clusterwise}`);
  await expectAccessible(page, "project");

  await page.goto(`/projects/${ids.clusterwise}/dashboard`);
  await expect(page.getByRole("region", { name: "Ranking" })).toContainText("round 0, 10 labels", { timeout: 120_000 });
  await expect(page.getByTestId("heatmap-row").first()).toBeVisible();
  await expectAccessible(page, "dashboard");
  await page.getByText("Export ▾").click();
  await expectAccessible(page, "dashboard, export menu open");
  await page.goto(`/projects/${ids.pairwise}/dashboard`);
  await expectAccessible(page, "dashboard (pairwise)");

  await page.goto(`/projects/${ids.clusterwise}/settings`);
  await expectAccessible(page, "settings");
  await page.goto(`/projects/${ids.clusterwise}/members`);
  await expectAccessible(page, "members");
  await page.goto(`/projects/${ids.clusterwise}/simulation`);
  await expectAccessible(page, "simulation");
  await page.goto("/admin/users");
  await expectAccessible(page, "users");

  await scanWorkspace(page, ids.clusterwise, "owner");
  await scanWorkspace(page, ids.pairwise, "owner");

  const invite = await page.request.post(`/api/projects/${ids.clusterwise}/invites`, { data: {} });
  expect(invite.status()).toBe(200);
  const signedOut = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
  await signedOut.goto((await invite.json()).invite.path);
  await expect(signedOut.getByRole("heading", { name: "Join Accessibility" })).toBeVisible();
  await expectAccessible(signedOut, "invite");
  await signedOut.context().close();
});

test("an annotator's pages have no WCAG 2.1 A or AA violations", async ({ browser }) => {
  const page = await asAnnotator(browser);
  await expectAccessible(page, "annotator: projects");
  await page.goto(`/projects/${ids.clusterwise}`);
  await expectAccessible(page, "annotator: project");
  await scanWorkspace(page, ids.clusterwise, "annotator");
  await scanWorkspace(page, ids.pairwise, "annotator");
  expect((await page.goto(`/projects/${ids.clusterwise}/dashboard`))?.status()).toBe(403);
  await expectAccessible(page, "annotator: forbidden dashboard");
  await page.context().close();
});
