import { db } from "./db";
import { serverConfig, type ServerConfig } from "./config";
import { importBundle } from "./imports";
import { hashPassword } from "./passwords";

export interface SeedResult {
  seeded: boolean;
  adminEmail?: string;
  adminPassword?: string;
}

export const DEMO_PROJECT = {
  name: "Fashion demo",
  description: "2,000 Fashion-MNIST images in a 64-d PCA embedding, with k-means and GMM clusterings to evaluate.",
};

/**
 * On first start with an empty database: the admin (credentials from the config, printed once
 * by the caller) and the demo project imported from the shipped bundle, owned by the admin.
 */
export async function seedIfEmpty(config: ServerConfig = serverConfig()): Promise<SeedResult> {
  if ((await db().user.count()) > 0) return { seeded: false };
  const admin = await db().user.create({
    data: { email: config.adminEmail.toLowerCase(), name: "Admin", role: "ADMIN", passwordHash: await hashPassword(config.adminPassword) },
  });
  await importBundle(config.demoBundleDir, admin.id, DEMO_PROJECT);
  return { seeded: true, adminEmail: config.adminEmail, adminPassword: config.adminPassword };
}
