/** `npm run db:migrate`: applies pending migrations to the configured database, keeping a copy first. */
import { serverConfig } from "../lib/server/config.ts";
import { upgradeOrExit } from "../lib/server/ops/upgrade.ts";

const { databasePath } = serverConfig();
const { applied } = upgradeOrExit(databasePath, console.log);
if (!applied.length) console.log(`${databasePath} is up to date`);
