import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/**
 * A bench's own data folder and SQLite database in a fresh temporary folder: set in this process
 * (before it imports the server modules) and returned as the environment of the worker processes
 * it starts; a DATABASE_URL of the caller's is left out of both.
 */
export async function benchDataFolder(prefix: string): Promise<{ root: string; env: NodeJS.ProcessEnv }> {
  const root = await mkdtemp(path.join(os.tmpdir(), prefix));
  const env: NodeJS.ProcessEnv = { ...process.env, CEREAL_DATA_DIR: path.join(root, "data"), NEXTAUTH_SECRET: "bench-secret" };
  delete env.DATABASE_URL;
  Object.assign(process.env, { CEREAL_DATA_DIR: env.CEREAL_DATA_DIR, NEXTAUTH_SECRET: env.NEXTAUTH_SECRET });
  delete process.env.DATABASE_URL;
  return { root, env };
}
