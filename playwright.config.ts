import { defineConfig } from "@playwright/test";

// Run through `npm run test:e2e` (bin/e2e.ts), which builds, starts the app on a free port with
// a fresh database and sets E2E_BASE_URL. *.postgresql.spec.ts run only against the app on
// PostgreSQL (bin/e2e.ts --postgresql sets E2E_DATABASE), every other spec only on SQLite.
const postgres = process.env.E2E_DATABASE === "postgresql";

export default defineConfig({
  testDir: "e2e",
  testMatch: postgres ? "**/*.postgresql.spec.ts" : "**/*.spec.ts",
  testIgnore: postgres ? [] : ["**/*.postgresql.spec.ts"],
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [["list"]],
  outputDir: "test-results",
  use: {
    baseURL: process.env.E2E_BASE_URL ?? "http://localhost:3000",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    },
    screenshot: "only-on-failure",
    trace: "off",
  },
});
