import { defineConfig } from "@playwright/test";

// Run through `npm run test:e2e` (bin/e2e.ts), which builds, starts the app on a free port with
// a fresh database and sets E2E_BASE_URL.
export default defineConfig({
  testDir: "e2e",
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
