import { expect, test } from "@playwright/test";
import { ADMIN, signIn } from "./session";
import { watchViolations } from "./csp-violations";

/**
 * Scripting it from the browser's side: a token made on the tokens page works as a bearer token
 * (and only within its scope) until it is revoked there; the API reference renders the OpenAPI
 * document under the Content-Security-Policy (a screenshot is kept as api-docs.png).
 */
test("make, use and revoke an access token; read the API reference", async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const check = await watchViolations(page);
  await signIn(page, ADMIN.email, ADMIN.password);

  await page.getByRole("link", { name: "Access tokens" }).click();
  await expect(page).toHaveURL(/\/account\/tokens$/);
  await page.getByLabel("Name").fill("e2e script");
  await page.getByLabel("Scope").selectOption("read");
  await page.getByRole("button", { name: "Make token" }).click();
  const token = (await page.getByTestId("new-token").textContent())!.trim();
  expect(token).toMatch(/^cereal_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
  await expect(page.getByRole("row", { name: /e2e script/ })).toContainText("read");
  // the same page holds your own webhook, for import events
  await expect(page.getByRole("heading", { name: "Webhook" })).toBeVisible();
  await expect(page.getByText("import.completed")).toBeVisible();
  await check("/account/tokens");

  const bearer = { authorization: `Bearer ${token}` };
  const projects = await request.get("/api/projects", { headers: bearer });
  expect(projects.status()).toBe(200);
  const { projects: list } = (await projects.json()) as { projects: { id: string; name: string }[] };
  expect(list.map((p) => p.name)).toContain("Fashion demo");
  const write = await request.patch(`/api/projects/${list[0].id}/settings`, { headers: bearer, data: { guidelines: "from a read token" } });
  expect(write.status()).toBe(403);

  page.once("dialog", (dialog) => dialog.accept());
  await page.getByRole("button", { name: "Revoke e2e script" }).click();
  await expect(page.getByRole("row", { name: /e2e script/ })).toContainText("revoked");
  const revoked = await request.get("/api/projects", { headers: bearer });
  expect(revoked.status()).toBe(401);

  await page.getByRole("link", { name: "API", exact: true }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page.locator(".swagger-ui .info .title")).toContainText("Cereal Studio API", { timeout: 30_000 });
  expect(await page.locator(".swagger-ui .opblock").count()).toBeGreaterThan(40);
  await page.locator(".swagger-ui .opblock-summary", { hasText: "/api/projects/{projectId}/labels" }).first().click();
  await expect(page.locator(".swagger-ui .opblock-body").first()).toContainText("idempotencyKey");
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: testInfo.outputPath("api-docs.png"), fullPage: false });
  await check("/docs/api");

  // the project's webhook on its settings page: a URL saved gets a Standard Webhooks secret
  const demo = list.find((p) => p.name === "Fashion demo")!;
  await page.goto(`/projects/${demo.id}/settings`);
  await page.getByLabel("Receiver URL").fill("https://example.org/hooks/cereal");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByTestId("webhook-secret")).toHaveText(/^whsec_[A-Za-z0-9+/]+=*$/);
  await expect(page.getByRole("table", { name: "Webhook deliveries" })).toContainText("Nothing sent yet.");
  await check(`/projects/${demo.id}/settings`);
});
