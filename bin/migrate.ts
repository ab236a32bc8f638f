/** `npm run db:migrate`: applies pending migrations to the configured database. */
import { migrateDatabase } from "../lib/server/migrate.ts";
import { serverConfig } from "../lib/server/config.ts";

const { databasePath } = serverConfig();
const { applied } = migrateDatabase(databasePath);
console.log(applied.length ? `applied ${applied.join(", ")} to ${databasePath}` : `${databasePath} is up to date`);
