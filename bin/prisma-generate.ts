/**
 * `npm run prisma:generate`: the Prisma 7 client for each provider, lib/generated/prisma (SQLite)
 * and lib/generated/prisma-postgresql (PostgreSQL), from prisma/schema.prisma and the schema
 * derived from it (bin/prisma-schemas.ts). lib/server/db.ts picks one by DATABASE_URL.
 * The schema engine is not needed for generate; Prisma 7 only checks that its path exists.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { SCHEMA_PATH, writePostgresqlSchema } from "./prisma-schemas.ts";

const prisma = path.join(process.cwd(), "node_modules", "prisma", "build", "index.js");
for (const schema of [SCHEMA_PATH, writePostgresqlSchema()]) {
  execFileSync(process.execPath, [prisma, "generate", "--schema", schema], {
    stdio: "inherit",
    env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: "/bin/false" },
  });
}
