/** `npm run db:migrate`: applies pending migrations to the configured database (a SQLite file: keeping a copy first). */
import { upgradeConfiguredOrExit } from "../lib/server/ops/upgrade.ts";

const applied = await upgradeConfiguredOrExit(console.log);
if (!applied.length) console.log("the database is up to date");
