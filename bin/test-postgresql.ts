/**
 * `npm run test:pg`: the unit/integration suite on PostgreSQL (each test file its own schema,
 * vitest.setup.ts); fails when the server does not answer. `npm test` runs it with
 * --if-reachable after the SQLite run: where no PostgreSQL answers it says so and skips it.
 * Further arguments go to vitest (a file, -t NAME).
 */
import { spawnSync } from "node:child_process";
import { postgresReachable, TEST_POSTGRES_URL } from "../lib/server/test-postgresql.ts";

const args = process.argv.slice(2);
// CI (.ci/run) sets CEREAL_REQUIRE_POSTGRESQL=1: there an unreachable server fails npm test too
const ifReachable = args[0] === "--if-reachable" && !process.env.CEREAL_REQUIRE_POSTGRESQL;
const vitestArgs = args[0] === "--if-reachable" ? args.slice(1) : args;
if (!(await postgresReachable())) {
  const line = `PostgreSQL does not answer at ${TEST_POSTGRES_URL} (set CEREAL_TEST_POSTGRES_URL to another server)`;
  if (!ifReachable) {
    console.error(`test:pg: ${line}. Start it: pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`);
    process.exit(1);
  }
  console.log(`\n*** SKIPPED the PostgreSQL run of the unit suite: ${line}. npm run test:pg runs it and fails. ***\n`);
  process.exit(0);
}
console.log(`test:pg: the unit suite on PostgreSQL at ${TEST_POSTGRES_URL}, one schema per test file`);
const result = spawnSync(process.execPath, ["node_modules/vitest/vitest.mjs", "run", ...vitestArgs], {
  stdio: "inherit",
  env: { ...process.env, CEREAL_TEST_DATABASE: "postgresql" },
});
process.exit(result.status ?? 1);
