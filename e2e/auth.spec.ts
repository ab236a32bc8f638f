import { expect, test } from "@playwright/test";
import { ADMIN, signIn } from "./session";

test("the demo admin signs in and sees the demo project", async ({ page }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/projects$/);
  await page.getByRole("link", { name: /^Fashion demo(?! \(pairwise\))/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Fashion demo", exact: true })).toBeVisible();
  await expect(page.getByText("kmeans_k10")).toBeVisible();
  await expect(page.getByText("2,000", { exact: true })).toBeVisible();
});

test("a wrong password shows an error and stays on the sign-in page", async ({ page }) => {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /./ })).toHaveText("Wrong email or password.");
  await expect(page).toHaveURL(/\/signin/);
});

test("a page asked for while signed out returns there after sign-in", async ({ page }) => {
  await page.goto("/admin/users");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fadmin%2Fusers/);
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();
});

test("an API call without a session gets 401 with a JSON error", async ({ request }) => {
  const response = await request.get("/api/projects");
  expect(response.status()).toBe(401);
  expect(await response.json()).toEqual({ error: { code: "unauthenticated", message: "Sign in to continue." } });
});

test("an API path no route answers, a normalised `..` or an unknown next-auth action, gets a JSON 404", async ({ request }) => {
  for (const path of ["/api/projects/x/items/%2e%2e/image", "/api/nothing-here", "/api/auth/nonsense"]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    expect((await response.json()).error.code, path).toBe("not_found");
  }
});

test("a user who is not a member gets 403 on the project's page and API", async ({ page, browser }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  const { projects } = await (await page.request.get("/api/projects")).json();
  const demo = projects.find((p: { name: string }) => p.name === "Fashion demo");
  const email = `outsider-${Date.now()}@example.org`;
  const created = await page.request.post("/api/admin/users", { data: { email, name: "Outsider", password: "outsider-pass", role: "RESEARCHER" } });
  expect(created.status()).toBe(200);

  const context = await browser.newContext();
  const outsider = await context.newPage();
  await signIn(outsider, email, "outsider-pass");
  await expect(outsider.getByText("You are not a member of any project yet.")).toBeVisible();
  const pageResponse = await outsider.goto(`/projects/${demo.id}`);
  expect(pageResponse?.status()).toBe(403);
  await expect(outsider.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
  const api = await outsider.request.get(`/api/projects/${demo.id}`);
  expect(api.status()).toBe(403);
  expect((await api.json()).error.code).toBe("forbidden");
  await context.close();
});

test("the admin creates a user on the Users page and a reset ends that user's session", async ({ page, browser }) => {
  await signIn(page, ADMIN.email, ADMIN.password);
  await page.goto("/admin/users");
  const email = `annotator-${Date.now()}@example.org`;
  const form = page.getByRole("form", { name: "Create a user" });
  await form.getByLabel("Name").fill("Ann Otator");
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill("first-password");
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByRole("status")).toHaveText(`Created ${email}.`);
  await expect(page.getByRole("cell", { name: email })).toBeVisible();

  const context = await browser.newContext();
  const annotator = await context.newPage();
  await signIn(annotator, email, "first-password");

  page.once("dialog", (dialog) => dialog.accept("second-password"));
  await page.getByRole("row", { name: new RegExp(email) }).getByRole("button", { name: "Reset password" }).click();
  await expect(page.getByRole("status")).toContainText("sessions are ended");

  await annotator.goto("/projects");
  await expect(annotator).toHaveURL(/\/signin/);
  expect((await annotator.request.get("/api/me")).status()).toBe(401);
  await context.close();
});
