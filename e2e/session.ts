import { expect, type Page } from "@playwright/test";

export const ADMIN = { email: "admin@cereal.local", password: "cereal-demo-admin" };

export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("current-user")).toBeVisible();
}
