import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import Database from "better-sqlite3";
import { ADMIN, signIn } from "./session";
import { watchViolations, type Violation } from "./csp-violations";

/**
 * Every page, as the owner (the demo admin) and as an annotator, under the Content-Security-Policy
 * of proxy.ts: the browser reports no violation, and the page's scripts ran (it is interactive).
 */

/** Leases held now: the workspace gives its tasks back when left, so later specs find the seed batch whole. */
function leases(): number {
  const db = new Database(path.join(process.env.CEREAL_DATA_DIR!, "cereal.db"), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("SELECT COUNT(*) AS n FROM Lease").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function visit(page: Page, url: string, check: (where: string) => Promise<void>) {
  const response = await page.goto(url);
  expect(response!.headers()["content-security-policy"], url).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'.*frame-ancestors 'none'/);
  expect(response!.headers()["x-content-type-options"]).toBe("nosniff");
  await page.waitForLoadState("networkidle");
  await check(url);
}

test("no page breaks its Content-Security-Policy, for the owner or an annotator", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const check = await watchViolations(page);
  await visit(page, "/signin", check);
  await signIn(page, ADMIN.email, ADMIN.password);
  const { projects } = await (await page.request.get("/api/projects")).json();
  const projectId = (projects as { id: string; name: string }[]).find((p) => p.name === "Fashion demo")!.id;
  const invite = (await (await page.request.post(`/api/projects/${projectId}/invites`, { data: {} })).json()).invite.path as string;

  const ownerPages = ["/projects", "/projects/new", "/admin/users", `/projects/${projectId}`, `/projects/${projectId}/dashboard`, `/projects/${projectId}/members`, `/projects/${projectId}/settings`, `/projects/${projectId}/simulation`, `/projects/${projectId}/label`];
  for (const url of ownerPages) await visit(page, url, check);
  // the workspace's scripts ran under the policy: it leased tasks and shows one
  await expect(page.getByTestId("workspace")).toHaveAttribute("data-task-id", /.+/, { timeout: 30_000 });
  await visit(page, "/projects", check);

  const email = `csp-annotator-${Date.now()}@x.org`;
  const context = await browser.newContext();
  const annotator = await context.newPage();
  const checkAnnotator = await watchViolations(annotator);
  await visit(annotator, invite, checkAnnotator);
  const form = annotator.getByRole("form", { name: "Create your account" });
  await form.getByLabel("Name").fill("Csp Annotator");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill("annotator-pass");
  await form.getByRole("button", { name: "Create account and join" }).click();
  await expect(annotator.getByTestId("current-user")).toContainText("Csp Annotator");
  for (const url of ["/", "/projects", `/projects/${projectId}`, `/projects/${projectId}/label`]) await visit(annotator, url, checkAnnotator);
  // leave only once the workspace holds its tasks: a lease still in flight when the page goes has no ids to give back
  await expect(annotator.getByTestId("workspace")).toHaveAttribute("data-task-id", /.+/, { timeout: 30_000 });
  await visit(annotator, "/projects", checkAnnotator);
  await expect.poll(leases, { timeout: 15_000 }).toBe(0);

  // the watch itself works: an image from another origin is blocked and reported
  await annotator.evaluate(() => document.body.append(Object.assign(document.createElement("img"), { src: "http://127.0.0.1:9/x.png" })));
  await expect.poll(() => annotator.evaluate(() => (window as unknown as { __cspViolations: Violation[] }).__cspViolations.map((v) => v.directive))).toEqual(["img-src"]);
  await context.close();
});
