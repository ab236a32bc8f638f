import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    include: ["**/*.test.ts"],
    // *.postgresql.test.ts test PostgreSQL-only code: they run in npm run test:pg only
    exclude: ["node_modules/**", "e2e/**", ".next/**", ...(process.env.CEREAL_TEST_DATABASE === "postgresql" ? [] : ["**/*.postgresql.test.ts"])],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    setupFiles: ["./vitest.setup.ts"],
  },
});
