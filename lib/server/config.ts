import path from "node:path";

/**
 * Server configuration from the environment (documented in .env.example). Read on each call so
 * tests can point one process at a fresh data folder.
 */
export interface ServerConfig {
  /** runtime data: the SQLite file, the auth secret, project files */
  dataDir: string;
  /** file path of the SQLite database (unused when `postgresUrl` is set) */
  databasePath: string;
  /** DATABASE_URL when it names a PostgreSQL server (postgresql:// or postgres://); null runs SQLite */
  postgresUrl: string | null;
  port: number;
  adminEmail: string;
  adminPassword: string;
  /** the bundle the demo project is seeded from */
  demoBundleDir: string;
}

export const DEFAULT_ADMIN_EMAIL = "admin@cereal.local";
export const DEFAULT_ADMIN_PASSWORD = "cereal-demo-admin";

/** DATABASE_URL selects PostgreSQL with the postgresql:// (or postgres://) scheme; anything else (unset, file:) is a SQLite file. */
export function isPostgresUrl(url: string | undefined): url is string {
  return /^postgres(ql)?:\/\//.test(url ?? "");
}

export function serverConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const root = process.cwd();
  const dataDir = path.resolve(/*turbopackIgnore: true*/ root, env.CEREAL_DATA_DIR ?? ".data");
  const postgresUrl = isPostgresUrl(env.DATABASE_URL) ? env.DATABASE_URL : null;
  const databasePath = env.DATABASE_URL && !postgresUrl
    ? path.resolve(/*turbopackIgnore: true*/ root, env.DATABASE_URL.replace(/^file:/, ""))
    : path.join(dataDir, "cereal.db");
  return {
    dataDir,
    databasePath,
    postgresUrl,
    port: Number(env.PORT ?? 3000),
    adminEmail: env.CEREAL_ADMIN_EMAIL ?? DEFAULT_ADMIN_EMAIL,
    adminPassword: env.CEREAL_ADMIN_PASSWORD ?? DEFAULT_ADMIN_PASSWORD,
    demoBundleDir: path.resolve(/*turbopackIgnore: true*/ root, env.CEREAL_DEMO_BUNDLE ?? "data/demo"),
  };
}
