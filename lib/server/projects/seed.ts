import { db } from "../db";
import { serverConfig, type ServerConfig } from "../config";
import { importBundle } from "../imports/imports";
import { hashPassword } from "../auth/passwords";

export interface SeedResult {
  seeded: boolean;
  adminEmail?: string;
  adminPassword?: string;
}

export const DEMO_PROJECT = {
  name: "Fashion demo",
  description: "2,000 Fashion-MNIST images in a 64-d PCA embedding, with k-means and GMM clusterings to evaluate.",
};

export const PAIRWISE_DEMO_PROJECT = {
  name: "Fashion demo (pairwise)",
  description: "The Fashion demo labeled in pairs: are these two images the same kind of garment?",
  mode: "pairwise" as const,
};

/**
 * Small batches and a short FixMatch schedule, so a demo round finishes in seconds on a laptop
 * and the first estimates appear after a few minutes of labeling (the e2e specs rely on it too).
 */
const DEMO_SETTINGS = { clusterwise: { seedSize: 20, batchSize: 10, fixmatchSteps: 64 }, pairwise: { seedSize: 10, batchSize: 10, fixmatchSteps: 64 } };

/**
 * On first start with an empty database: the admin (credentials from the config, printed once
 * by the caller) and the two demo projects imported from the shipped bundle, owned by the admin.
 */
export async function seedIfEmpty(config: ServerConfig = serverConfig()): Promise<SeedResult> {
  if ((await db().user.count()) > 0) return { seeded: false };
  const admin = await db().user.create({
    data: { email: config.adminEmail.toLowerCase(), name: "Admin", role: "ADMIN", passwordHash: await hashPassword(config.adminPassword) },
  });
  const clusterwise = await importBundle(config.demoBundleDir, admin.id, DEMO_PROJECT);
  await db().project.update({ where: { id: clusterwise.projectId }, data: DEMO_SETTINGS.clusterwise });
  const pairwise = await importBundle(config.demoBundleDir, admin.id, PAIRWISE_DEMO_PROJECT);
  await db().project.update({ where: { id: pairwise.projectId }, data: DEMO_SETTINGS.pairwise });
  return { seeded: true, adminEmail: config.adminEmail, adminPassword: config.adminPassword };
}
