import fs from "node:fs";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { demoSubsetBundle, demoTruth } from "./demo-subset";
import { ADMIN, signIn } from "./session";
import { tabTo } from "./keyboard";
import { allSaved, answerWith, currentTask, workspace } from "./workspace";

// Every page scanned with axe-core at WCAG 2.1 A and AA, as the owner and as an annotator, on
// projects of their own (one per mode) so the workspace specs' demo projects stay untouched.
test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1280, height: 720 } });

const N = 120;
const CLASS_KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"]; // class index 0 is key 1, ..., 9 is key 0
const truth = demoTruth(N);
const annotator = { email: `a11y-annotator-${Date.now()}@example.org`, password: "annotator-pass" };
const ids = { clusterwise: "", pairwise: "" };
// E2E_SCREENSHOTS=/some/dir saves the label page at 1280 x 720 and at 200% zoom, and the dashboard, for a reviewer.
const shots = process.env.E2E_SCREENSHOTS;

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

  // the seed batch labeled with the truth in the workspace, so the dashboard has a round's charts to scan
  const other = await asAnnotator(browser);
  await other.goto(`/projects/${ids.clusterwise}/label`);
  for (let i = 0; i < 10; i++) await answerWith(other, CLASS_KEYS[truth[(await currentTask(other)).itemIndex]]);
  await allSaved(other);
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

test("the dashboard's tabs, select boxes and export menu work by keyboard alone", async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto(`/projects/${ids.clusterwise}/dashboard`);
  const ranking = page.getByRole("region", { name: "Ranking" });
  await expect(ranking).toContainText("round 0, 10 labels", { timeout: 60_000 });

  // the header's controls come first, in reading order, then the metric tabs: one Tab stop
  const nmi = page.getByRole("tab", { name: "NMI" });
  const before = await tabTo(page, nmi);
  expect(before.slice(-5)).toEqual(['button "Pause"', 'summary "Export ▾"', 'a "Simulation"', 'a "Members"', 'a "Settings"']);
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "AMI" })).toBeFocused();
  await expect(page.getByRole("tab", { name: "AMI" })).toHaveAttribute("aria-selected", "true");
  await expect(ranking.getByRole("heading")).toContainText("Ranking by AMI");
  if (shots) await page.screenshot({ path: `${shots}/dashboard-keyboard.png` });
  await page.keyboard.press("End");
  await expect(page.getByRole("tab", { name: "FMI" })).toBeFocused();
  await expect(ranking.getByRole("heading")).toContainText("Ranking by FMI");
  await page.keyboard.press("ArrowRight");
  await expect(nmi).toBeFocused();
  await expect(ranking.getByRole("heading")).toContainText("Ranking by NMI");
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.getAttribute("role"))).not.toBe("tab");

  const measure = page.getByRole("combobox", { name: "Internal measure" });
  await tabTo(page, measure);
  await page.keyboard.press("ArrowDown");
  await expect(measure).toHaveValue("davies-bouldin");
  await expect(page.getByTestId("measure-direction")).toHaveText("↓ lower is better");

  // a clustering chosen by its name's button in the ranking, then another by the heatmap's select
  const clustering = page.getByRole("combobox", { name: "Clustering" });
  await tabTo(page, ranking.getByRole("button", { name: "kmeans_k5" }));
  await page.keyboard.press("Enter");
  await expect(clustering).toHaveValue("kmeans_k5");
  await expect(page.getByTestId("heatmap-row").first().locator("td")).toHaveCount(5);
  const options = await clustering.locator("option").allTextContents();
  const at = options.indexOf("kmeans_k5");
  const [key, next] = at + 1 < options.length ? ["ArrowDown", options[at + 1]] : ["ArrowUp", options[at - 1]];
  await tabTo(page, clustering);
  await page.keyboard.press(key);
  await expect(clustering).toHaveValue(next);
  await expect(page.getByTestId("heatmap-row").first().locator("td")).toHaveCount(10);

  // the export menu: open, download, close with Esc back onto its button
  const exportButton = page.getByText("Export ▾");
  await tabTo(page, exportButton, { back: true });
  await page.keyboard.press("Enter");
  const csvLink = page.getByRole("link", { name: "Labels (CSV)", exact: true });
  await expect(csvLink).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(csvLink).toBeFocused();
  const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
  const rows = fs.readFileSync((await download.path())!, "utf8").trim().split("\n");
  expect(rows[0]).toContain("item_index");
  expect(rows).toHaveLength(1 + 10);
  await exportButton.focus();
  await page.keyboard.press("Enter");
  await expect(csvLink).toBeVisible();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Escape");
  await expect(csvLink).toBeHidden();
  await expect(exportButton).toBeFocused();
});

test("the label page announces the item, the saved state and the round; its dialog keeps focus and gives it back", async ({ browser }) => {
  const page = await asAnnotator(browser);
  await page.goto(`/projects/${ids.clusterwise}/label`);
  const shown = async () => {
    await expect(workspace(page)).toHaveAttribute("data-armed", "true");
    return workspace(page).locator("figcaption .font-mono").textContent();
  };
  const item = page.getByTestId("announce-item");
  await expect(item).toHaveAttribute("role", "status");
  const firstItem = await shown();
  await expect(item).toHaveText(new RegExp(`^Item ${firstItem}, (seed stage|stage \\d+)$`));
  await page.keyboard.press("1");
  await expect(workspace(page).locator("figcaption .font-mono")).not.toHaveText(firstItem!);
  const secondItem = await shown();
  await expect(item).toHaveText(new RegExp(`^Item ${secondItem}, `));
  await expect(page.getByTestId("announce-save")).toHaveText("All answers saved");
  // the seed batch's last label queued round 0 before this page opened
  await expect(page.getByTestId("announce-round")).toHaveText(/^Round \d+ (queued|training|running|saving results|finished)$/);

  const help = page.getByRole("button", { name: /Keys & guidelines/ });
  await tabTo(page, help);
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Keys, classes and guidelines" });
  await expect(dialog).toBeVisible();
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press(i % 3 === 2 ? "Shift+Tab" : "Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement)), `Tab ${i + 1} left the dialog`).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(help).toBeFocused();
  await page.context().close();
});

test("the label page fits 1280 x 720 and 200% zoom without scrolling sideways", async ({ browser }) => {
  // 200% zoom of a 1280 x 720 window lays the page out in 640 x 360 CSS pixels, each drawn with 2 x 2 device pixels
  const screens = [
    { name: "1280x720", viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 },
    { name: "zoom200", viewport: { width: 640, height: 360 }, deviceScaleFactor: 2 },
  ];
  for (const screen of screens) {
    const context = await browser.newContext({ viewport: screen.viewport, deviceScaleFactor: screen.deviceScaleFactor });
    const page = await context.newPage();
    await signIn(page, annotator.email, annotator.password);
    for (const mode of ["clusterwise", "pairwise"] as const) {
      await page.goto(`/projects/${ids[mode]}/label`);
      await expect(workspace(page)).toHaveAttribute("data-armed", "true");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${mode} at ${screen.name}: pixels of sideways scrolling`).toBe(0);
      if (shots) await page.screenshot({ path: `${shots}/label-${mode}-${screen.name}.png`, fullPage: true });
    }
    await context.close();
  }
});
