import path from "node:path";
import { defineConfig } from "prisma/config";
import { isPostgresUrl } from "./lib/server/config";

// Prisma 7 CLI config. The app never needs the CLI at run time: migrations are committed SQL
// applied by bin/migrate.ts (see README, "Adding a migration"). Online, the standard commands
// (`prisma migrate deploy`, `prisma migrate status`) work on the folder of the database
// DATABASE_URL names: PostgreSQL's schema is derived by `npm run prisma:generate`.
const postgres = isPostgresUrl(process.env.DATABASE_URL);

export default defineConfig({
  schema: postgres ? path.join("lib", "generated", "postgresql.prisma") : path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", postgres ? "migrations-postgresql" : "migrations") },
  datasource: { url: process.env.DATABASE_URL ?? "file:./.data/cereal.db" },
});
