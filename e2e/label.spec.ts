import { zipSync } from "fflate";
import { expect, test, type Page } from "@playwright/test";
import { encodeNpy } from "../lib/data/npy";
import { clusterIds, embeddingValues } from "../lib/data/test-bundles";
import { expectAccessible } from "./axe";
import { ADMIN, signIn } from "./session";
import { allSaved, answerWith, currentTask, exportedLabels, projectId, snapshot, workspace, type Answered } from "./workspace";

// One database for the whole file: the specs run in order and build on each other's stages.
test.describe.configure({ mode: "serial" });
test.use({ viewport: { width: 1440, height: 900 } });

// E2E_SCREENSHOTS=/some/dir saves what a reviewer looks at: both modes, help, focus, a running round.
const shots = process.env.E2E_SCREENSHOTS;
const shoot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png` });
};

const CLUSTERWISE = "Fashion demo";
const PAIRWISE = "Fashion demo (pairwise)";
const CLASS_KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"];

async function openWorkspace(page: Page, name: string) {
  const id = await projectId(page, name);
  await page.goto(`/projects/${id}`);
  const start = page.getByRole("link", { name: "Start labeling" });
  await start.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/projects/${id}/label$`));
  await expect(workspace(page)).toBeVisible();
  return id;
}

test("an annotator labels the seed stage by keyboard, keeps labeling while the round trains, then gets items drawn with its ranking", async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  // A round long enough to label during it, whatever the machine: FixMatch with the paper's
  // estimator (the guarded one may switch to fast supervised training on these arbitrary labels).
  const demo = await projectId(page, CLUSTERWISE);
  expect((await page.request.patch(`/api/projects/${demo}/settings`, { data: { fixmatch: true, fixmatchSteps: 1500, estimator: "argmax", batchSize: 10 } })).status()).toBe(200);
  const id = await openWorkspace(page, CLUSTERWISE);
  await expect(page.getByTestId("stage-progress")).toContainText("Seed stage");
  await expect(page.getByTestId("stage-progress")).toContainText("0 / 10");
  await expect(page.getByRole("button", { name: /T-shirt\/top/ })).toContainText("1");
  await expect(page.getByRole("button", { name: /Ankle boot/ })).toContainText("0");

  await shoot(page, "clusterwise-start");
  const seed: Answered[] = [];
  while ((await currentTask(page)).stage === 0) {
    seed.push(await answerWith(page, CLASS_KEYS[seed.length % 10]));
    if (seed.length === 15) {
      await currentTask(page);
      await shoot(page, "clusterwise");
      await page.keyboard.press("?");
      await expect(page.getByRole("dialog", { name: "Keys, classes and guidelines" })).toBeVisible();
      await shoot(page, "help");
      await page.keyboard.press("Escape");
      await expect(page.getByRole("dialog")).toBeHidden();
      // The keys keep working while a button has focus; the focus ring must be visible.
      await page.getByRole("button", { name: /Trouser/ }).focus();
      await shoot(page, "focus");
    }
  }
  expect(seed).toHaveLength(20);
  expect(new Set(seed.map((t) => t.taskId)).size).toBe(20);

  // The round is queued or training now; the workspace keeps handing out items of the next stage,
  // drawn ahead of need (uniformly: no round has finished yet).
  await expect(page.getByTestId("round-indicator")).toBeVisible();
  await shoot(page, "round");
  const during: Answered[] = [];
  for (let i = 0; i < 3; i++) during.push(await answerWith(page, "5"));
  expect(during.every((t) => t.stage >= 1 && t.drawnByRound === null)).toBe(true);
  await allSaved(page);

  const rows = await exportedLabels(page, id);
  const byItem = new Map(rows.map((r) => [r.item_index, r]));
  // key 1 is the first class (index 0), ..., key 0 the tenth (index 9)
  seed.forEach((t, i) => expect(byItem.get(t.itemIndex)?.class_index, `seed item ${i}`).toBe(i % 10));
  expect(rows.filter((r) => r.batch >= 1)).toHaveLength(3);

  // Round 0 finishes in the worker; the stages drawn from then on use its ranking.
  await expect(page.getByTestId("round-indicator")).toBeHidden({ timeout: 180_000 });
  expect((await snapshot(page, id)).lastRound).toMatchObject({ index: 0 });
  // Back to the demo's quick rounds, and later rounds need 60 settled labels, so none starts (and
  // freezes labels) while the specs after this one answer, undo and retry.
  expect((await page.request.patch(`/api/projects/${demo}/settings`, { data: { fixmatchSteps: 64, estimator: "guarded", batchSize: 60 } })).status()).toBe(200);
  const after: Answered[] = [];
  while (after.length < 30) {
    const task = await currentTask(page);
    if (task.drawnByRound === 0) break;
    after.push(await answerWith(page, "7"));
  }
  const acquired = await currentTask(page);
  expect(acquired.drawnByRound).toBe(0);
  await expect(page.getByTestId("stage-progress")).toContainText(`Stage ${acquired.stage}`);
  await expect(page.getByTestId("stage-progress")).toContainText("drawn by round 0's ranking");
});

test("undo reopens the last item, skip takes a reason, and a double or held key press labels once", async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  const id = await openWorkspace(page, CLUSTERWISE);
  const before = (await exportedLabels(page, id)).length;

  const first = await answerWith(page, "3");
  await page.keyboard.press("z");
  await expect(workspace(page)).toHaveAttribute("data-task-id", first.taskId);
  await answerWith(page, "4");
  const second = await answerWith(page, "6");
  await page.keyboard.press("Backspace");
  await expect(workspace(page)).toHaveAttribute("data-task-id", second.taskId);
  await answerWith(page, "8");

  const skipped = await currentTask(page);
  await page.keyboard.press("s");
  const dialog = page.getByRole("dialog", { name: "Skip this item" });
  await expect(dialog).toBeVisible();
  await page.keyboard.type("collar hidden");
  await shoot(page, "skip-dialog");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(workspace(page)).not.toHaveAttribute("data-task-id", skipped.taskId);

  const doubled = await currentTask(page);
  await page.keyboard.press("2");
  await page.keyboard.press("2");
  await expect(workspace(page)).not.toHaveAttribute("data-task-id", doubled.taskId);
  const afterDouble = await currentTask(page);
  const held = afterDouble;
  await page.keyboard.down("9");
  await page.keyboard.down("9");
  await page.keyboard.down("9");
  await page.keyboard.up("9");
  await expect(workspace(page)).not.toHaveAttribute("data-task-id", held.taskId);
  const untouched = await currentTask(page);
  await allSaved(page);

  const rows = await exportedLabels(page, id);
  expect(rows).toHaveLength(before + 5);
  const of = (t: Answered) => rows.filter((r) => r.item_index === t.itemIndex).map((r) => [r.kind, r.class_index]);
  expect(of(first)).toEqual([["label", 3]]);
  expect(of(second)).toEqual([["label", 7]]);
  expect(of(skipped)).toEqual([["skip", null]]);
  expect(of(doubled)).toEqual([["label", 1]]);
  expect(of(held)).toEqual([["label", 8]]);
  expect(of(untouched)).toEqual([]);
});

test("an expired session signs in again and returns to the workspace; the answer given meanwhile is kept", async ({ page, context }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  const id = await openWorkspace(page, CLUSTERWISE);
  // The session ends just as the answer is sent: the answer is already stored, the 401 leads to sign-in.
  await page.route(
    `**/api/projects/${id}/labels`,
    async (route) => {
      await context.clearCookies();
      const headers = { ...route.request().headers() };
      delete headers.cookie;
      await route.continue({ headers });
    },
    { times: 1 },
  );
  const task = await currentTask(page);
  await page.keyboard.press("1");
  await expect(page).toHaveURL(new RegExp(`/signin\\?callbackUrl=${encodeURIComponent(`/projects/${id}/label`)}`));
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByLabel("Password").press("Enter");
  await expect(page).toHaveURL(new RegExp(`/projects/${id}/label$`));
  await expect(workspace(page)).toBeVisible();
  await allSaved(page);
  const rows = await exportedLabels(page, id);
  expect(rows.filter((r) => r.item_index === task.itemIndex).map((r) => [r.kind, r.class_index])).toEqual([["label", 0]]);
});

test("a flaky network neither loses nor duplicates an answer: lost responses are retried with the same key", async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  const id = await openWorkspace(page, CLUSTERWISE);
  const before = (await exportedLabels(page, id)).length;
  // The first POST reaches the server but its response is lost; the second never leaves the browser.
  let failures = 0;
  const keys: string[] = [];
  await page.route(`**/api/projects/${id}/labels`, async (route) => {
    keys.push((route.request().postDataJSON() as { idempotencyKey: string }).idempotencyKey);
    failures += 1;
    if (failures === 1) {
      await route.fetch();
      return route.abort("connectionreset");
    }
    if (failures === 2) return route.abort("internetdisconnected");
    return route.continue();
  });
  const task = await answerWith(page, "2");
  await expect(page.getByTestId("save-status")).toContainText("Connection trouble");
  await allSaved(page);
  expect(keys).toHaveLength(3);
  expect(new Set(keys).size).toBe(1);
  const rows = await exportedLabels(page, id);
  expect(rows).toHaveLength(before + 1);
  expect(rows.filter((r) => r.item_index === task.itemIndex).map((r) => r.class_index)).toEqual([1]);
});

test("a refused answer (409) explains itself in a notice and moves on; the layout stays put", async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  const id = await openWorkspace(page, CLUSTERWISE);
  const toolbar = page.getByRole("toolbar", { name: "Item actions" });
  const classes = page.getByRole("list", { name: "Classes" });
  const place = async () => [await toolbar.boundingBox(), await classes.boundingBox()];
  const before = await place();

  // The same task answered elsewhere first (another tab, say): this page's answer is refused.
  const task = await currentTask(page);
  const elsewhere = await page.request.post(`/api/projects/${id}/labels`, { data: { taskId: task.taskId, idempotencyKey: `other-tab-${Date.now()}`, kind: "label", classIndex: 4 } });
  expect(elsewhere.status()).toBe(200);
  await answerWith(page, "6");
  await expect(page.getByTestId("toast")).toHaveText(/Not saved, moved on: You already answered this task\./);
  await allSaved(page);
  for (let i = 0; i < 3; i++) await answerWith(page, "1");
  expect(await place()).toEqual(before);

  const rows = (await exportedLabels(page, id)).filter((r) => r.item_index === task.itemIndex);
  expect(rows.map((r) => r.class_index)).toEqual([4]);
});

test("the pairwise demo is labeled to the end of its seed stage", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  const id = await projectId(page, PAIRWISE);
  // This time from the projects list: each card has its own way in.
  await page.goto("/projects");
  await page.getByRole("listitem").filter({ hasText: PAIRWISE }).getByRole("link", { name: "Start labeling" }).focus();
  await shoot(page, "projects-list");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/projects/${id}/label$`));
  await expect(workspace(page)).toHaveAttribute("data-mode", "pairwise");
  await expect(page.getByRole("img", { name: /^Item / })).toHaveCount(2);
  await expect(page.getByRole("button", { name: /Same class/ })).toBeVisible();
  await currentTask(page);
  await shoot(page, "pairwise");

  const answered: Answered[] = [];
  while ((await currentTask(page)).stage === 0) answered.push(await answerWith(page, ["f", "j", "y", "n", "u"][answered.length % 5]));
  expect(answered).toHaveLength(10);
  await allSaved(page);

  const rows = (await exportedLabels(page, id)).filter((r) => r.batch === 0);
  expect(rows.map((r) => r.answer ?? r.kind)).toEqual(expect.arrayContaining(["same", "different", "unsure"]));
  expect(rows).toHaveLength(10);
  expect(rows.every((r) => r.item_b_index !== null && r.annotator === ADMIN.email)).toBe(true);
  // every answer carries the time it took on screen: never negative, never more than the test's 120 s
  expect(rows.every((r) => r.duration_ms !== null && r.duration_ms >= 0 && r.duration_ms <= 120_000)).toBe(true);
  await expect.poll(async () => (await snapshot(page, id)).lastRound?.index, { timeout: 60_000 }).toBe(0);
  // Leaving gives the prefetched items of the next stage back at once.
  await page.goto("/projects");
  // round 0's NMI interval is the whole range, and the dashboard says why
  await page.goto(`/projects/${id}/dashboard`);
  await expect(page.getByTestId("pairwise-intervals-note")).toContainText("No model has drawn answered pairs yet");
});

test("two annotators label one stage at once; together they cover it with no task twice", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  const id = await projectId(page, PAIRWISE);
  const people = [`ann-a-${Date.now()}@example.org`, `ann-b-${Date.now()}@example.org`];
  for (const email of people) {
    expect((await page.request.post("/api/admin/users", { data: { email, name: email.slice(0, 5), password: "annotator-pass", role: "ANNOTATOR" } })).status()).toBe(200);
    expect((await page.request.post(`/api/projects/${id}/members`, { data: { email } })).status()).toBe(200);
  }
  // stage 1: uniform pairs drawn ahead while the seed stage was labeled (its prefetched pairs were given back)
  expect((await snapshot(page, id)).stages!.latest).toBeGreaterThanOrEqual(1);

  const sessions = await Promise.all(
    people.map(async (email) => {
      const context = await browser.newContext();
      const annotator = await context.newPage();
      await signIn(annotator, email, "annotator-pass");
      await annotator.goto(`/projects/${id}/label`);
      return { context, annotator };
    }),
  );
  const labeled = await Promise.all(
    sessions.map(async ({ annotator }, who) => {
      const mine: Answered[] = [];
      for (;;) {
        const ws = workspace(annotator);
        await expect(ws).toHaveAttribute("data-armed", "true");
        if (Number(await ws.getAttribute("data-stage")) !== 1) break;
        mine.push(await answerWith(annotator, who === 0 ? "f" : "j"));
      }
      await allSaved(annotator);
      return mine;
    }),
  );
  const [a, b] = labeled.map((mine) => mine.map((t) => t.taskId));
  expect(a.length).toBeGreaterThan(0);
  expect(b.length).toBeGreaterThan(0);
  expect(a.filter((t) => b.includes(t))).toEqual([]);
  const rows = (await exportedLabels(page, id)).filter((r) => r.batch === 1);
  expect(rows.length).toBeGreaterThanOrEqual(10);
  expect(new Set([...a, ...b]).size).toBe(rows.length);
  expect(new Set(rows.map((r) => r.draw_order)).size).toBe(rows.length);
  expect(rows.filter((r) => r.annotator === people[0])).toHaveLength(a.length);
  expect(rows.filter((r) => r.annotator === people[1])).toHaveLength(b.length);
  for (const { context } of sessions) await context.close();
});

const SHAPES = ["circle", "square", "triangle", "hexagon", "star", "cross", "heart", "arrow", "crescent", "diamond", "oval", "pentagon", "spiral"];

/** A text bundle with 13 classes: past 12, the workspace adds the filter box. */
function shapesBundle(): Buffer {
  const n = 30;
  const manifest = { name: "shapes-text", N: n, D: 4, class_names: SHAPES, items: "items.jsonl", clusterings: { kmeans_k3: { file: "clusterings/kmeans_k3.npy", K: 3 } } };
  const items = Array.from({ length: n }, (_, i) => JSON.stringify({ id: `note-${i}`, text: `Field note ${i}: a ${SHAPES[i % 13]} drawn in chalk on the north wall, partly washed out by rain.` })).join("\n") + "\n";
  const encode = (text: string) => new TextEncoder().encode(text);
  return Buffer.from(
    zipSync({
      "shapes-text/manifest.json": encode(JSON.stringify(manifest)),
      "shapes-text/embeddings.npy": encodeNpy(embeddingValues(n, 4), [n, 4]),
      "shapes-text/items.jsonl": encode(items),
      "shapes-text/clusterings/kmeans_k3.npy": encodeNpy(clusterIds(n, 3), [n]),
    }),
  );
}

/** The shapes bundle imported as an open project with small stages, with these settings too. */
async function shapesProject(page: Page, name: string, settings: Record<string, unknown>): Promise<string> {
  const upload = await page.request.post("/api/projects", {
    multipart: { name, description: "", mode: "clusterwise", bundle: { name: "shapes.zip", mimeType: "application/zip", buffer: shapesBundle() } },
  });
  expect(upload.status()).toBe(200);
  const id = ((await upload.json()) as { import: { projectId: string } }).import.projectId;
  expect((await page.request.patch(`/api/projects/${id}/settings`, { data: { classMode: "open", seedSize: 8, batchSize: 4, ...settings } })).status()).toBe(200);
  return id;
}

test("texts with many classes: / filters and Enter chooses, letters label past ten, N adds a class in open mode, ? shows the guidelines", async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  const guidelines = "Label the shape the note describes, not the wall it is on.";
  const id = await shapesProject(page, "Shapes (text)", { guidelines });

  await page.goto(`/projects/${id}/label`);
  await expect(page.getByText(/^Field note \d+:/)).toBeVisible();
  const filter = page.getByRole("searchbox", { name: "Filter classes" });
  await expect(filter).toBeVisible();
  await expect(page.getByRole("button", { name: /spiral/ })).toContainText("C");
  await shoot(page, "text-many-classes");

  // "/" focuses the filter; the letters typed there are a query, not shortcuts.
  const filtered = await currentTask(page);
  await page.keyboard.press("/");
  await expect(filter).toBeFocused();
  await page.keyboard.type("hexa");
  await expect(page.getByRole("list", { name: "Classes" }).getByRole("button")).toHaveCount(1);
  await page.keyboard.press("Enter");
  await expect(workspace(page)).not.toHaveAttribute("data-task-id", filtered.taskId);
  await expect(filter).not.toBeFocused();
  await expect(filter).toHaveValue("");

  const lettered = await answerWith(page, "b"); // the 12th class, pentagon

  const named = await currentTask(page);
  await page.keyboard.press("n");
  const dialog = page.getByRole("dialog", { name: "New class" });
  await expect(dialog).toBeVisible();
  await page.keyboard.type("Star of David");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(workspace(page)).not.toHaveAttribute("data-task-id", named.taskId);
  await expect(page.getByRole("button", { name: /Star of David/ })).toContainText("D");

  await page.keyboard.press("n");
  await expect(dialog).toBeVisible();
  await page.keyboard.type("circle");
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("alert")).toHaveText('A class named "circle" already exists; label with it instead.');
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keys, classes and guidelines" });
  await expect(help).toContainText(guidelines);
  await expect(help).toContainText("Star of David");
  await page.keyboard.press("Escape");
  await allSaved(page);

  const rows = await exportedLabels(page, id);
  const of = (t: Answered) => rows.filter((r) => r.item_index === t.itemIndex).map((r) => r.class_index);
  expect(of(filtered)).toEqual([SHAPES.indexOf("hexagon")]);
  expect(of(lettered)).toEqual([SHAPES.indexOf("pentagon")]);
  expect(of(named)).toEqual([13]);
  expect(rows).toHaveLength(3);
});

test("one class at a time: Y/F says same, N/J asks the next class, Z steps back, L shows the list, and past the last class N names a new one", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, ADMIN.email, ADMIN.password);
  const id = await shapesProject(page, "Shapes (one class at a time)", { labelBy: "verify" });

  await page.goto(`/projects/${id}/label`);
  const ws = workspace(page);
  await expect(ws).toHaveAttribute("data-label-by", "verify");
  const verifier = page.getByTestId("class-verifier");
  await expect(page.getByTestId("verify-position")).toHaveText(`Class 1 of ${SHAPES.length}`);
  await shoot(page, "verify-one-class");
  await expectAccessible(page, "one class at a time");
  // one key press on the question on screen, once it takes answers (each question is armed anew)
  const asked = async () => {
    await expect(ws).toHaveAttribute("data-armed", "true");
    return Number(await verifier.getAttribute("data-asked-class"));
  };
  const press = async (key: string) => {
    await asked();
    await page.keyboard.press(key);
  };

  const first = await currentTask(page);
  const firstClass = await asked();
  // a screen reader hears each question as it comes
  await expect(page.getByTestId("announce-item")).toContainText(`Same class as ${SHAPES[firstClass]}? Class 1 of ${SHAPES.length}`);
  await page.keyboard.press("f");
  await expect(ws).not.toHaveAttribute("data-task-id", first.taskId);

  const second = await currentTask(page);
  const secondOrder = [await asked()];
  await press("j");
  await expect(page.getByTestId("verify-position")).toHaveText(`Class 2 of ${SHAPES.length}`);
  secondOrder.push(await asked());
  expect(secondOrder[1]).not.toBe(secondOrder[0]);
  await press("z"); // back to the first question; the item stays
  await expect(page.getByTestId("verify-position")).toHaveText(`Class 1 of ${SHAPES.length}`);
  expect(await asked()).toBe(secondOrder[0]);
  await expect(ws).toHaveAttribute("data-task-id", second.taskId);
  await press("n");
  await press("y");
  await expect(ws).not.toHaveAttribute("data-task-id", second.taskId);

  const listed = await currentTask(page);
  await press("l");
  await expect(ws).toHaveAttribute("data-verify-step", "pick");
  await expect(page.getByTestId("announce-item")).not.toContainText("Same class as");
  await answerWith(page, "b"); // in the list, the 12th class (pentagon) has its letter

  const named = await currentTask(page);
  for (let i = 0; i < SHAPES.length; i++) await press("j");
  const dialog = page.getByRole("dialog", { name: "New class" });
  await expect(dialog).toBeVisible();
  await expect(ws).toHaveAttribute("data-verify-step", "newClass");
  await page.keyboard.type("Star of David");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(ws).not.toHaveAttribute("data-task-id", named.taskId);
  await allSaved(page);

  const rows = await exportedLabels(page, id);
  const of = (t: Answered) => rows.filter((r) => r.item_index === t.itemIndex).map((r) => [r.class_index, r.verify_answers]);
  expect(of(first)).toEqual([[firstClass, 1]]);
  expect(of(second)).toEqual([[secondOrder[1], 2]]);
  expect(of(listed)).toEqual([[SHAPES.indexOf("pentagon"), 0]]);
  expect(of(named)).toEqual([[SHAPES.length, SHAPES.length]]);

  // the owner reads the answers per label beside the answer times
  const overview = (await (await page.request.get(`/api/projects/${id}/label-overview`)).json()) as { verification: { verifiedLabels: number; answersPerLabel: number } };
  expect(overview.verification).toEqual({ verifiedLabels: 4, answersPerLabel: (1 + 2 + 0 + SHAPES.length) / 4 });
  await page.goto(`/projects/${id}/dashboard`);
  await expect(page.getByTestId("verify-answers")).toContainText("4 labels given one class at a time took 4.00");
});
