import path from "node:path";
import { defineConfig } from "prisma/config";

// Prisma 7 CLI config. The app never needs the CLI at run time: migrations are committed SQL
// applied by bin/migrate.ts (see README, "Adding a migration").
export default defineConfig({
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  datasource: { url: process.env.DATABASE_URL ?? "file:./.data/cereal.db" },
});
