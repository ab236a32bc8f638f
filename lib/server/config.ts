import path from "node:path";

/**
 * Server configuration from the environment (documented in .env.example). Read on each call so
 * tests can point one process at a fresh data folder.
 */
export interface ServerConfig {
  /** runtime data: the SQLite file, the auth secret, project files */
  dataDir: string;
  /** file path of the SQLite database */
  databasePath: string;
  port: number;
  adminEmail: string;
  adminPassword: string;
  /** the bundle the demo project is seeded from */
  demoBundleDir: string;
}

export const DEFAULT_ADMIN_EMAIL = "admin@cereal.local";
export const DEFAULT_ADMIN_PASSWORD = "cereal-demo-admin";

export function serverConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const root = process.cwd();
  const dataDir = path.resolve(/*turbopackIgnore: true*/ root, env.CEREAL_DATA_DIR ?? ".data");
  const databasePath = env.DATABASE_URL
    ? path.resolve(/*turbopackIgnore: true*/ root, env.DATABASE_URL.replace(/^file:/, ""))
    : path.join(dataDir, "cereal.db");
  return {
    dataDir,
    databasePath,
    port: Number(env.PORT ?? 3000),
    adminEmail: env.CEREAL_ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL,
    adminPassword: env.CEREAL_ADMIN_PASSWORD ?? DEFAULT_ADMIN_PASSWORD,
    demoBundleDir: path.resolve(/*turbopackIgnore: true*/ root, env.CEREAL_DEMO_BUNDLE ?? "data/demo"),
  };
}
