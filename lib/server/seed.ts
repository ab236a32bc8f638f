import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { db } from "./db";
import { serverConfig, type ServerConfig } from "./config";
import { hashPassword } from "./passwords";

const demoManifest = z.object({
  name: z.string(),
  N: z.number().int().positive(),
  D: z.number().int().positive(),
  class_names: z.array(z.string()),
  clusterings: z.record(z.string(), z.object({ K: z.number().int().positive() })),
});

export interface SeedResult {
  seeded: boolean;
  adminEmail?: string;
  adminPassword?: string;
}

/**
 * On first start with an empty database: the admin (credentials from the config, printed once
 * by the caller) and the demo project from the shipped bundle, owned by the admin.
 */
export async function seedIfEmpty(config: ServerConfig = serverConfig()): Promise<SeedResult> {
  if ((await db().user.count()) > 0) return { seeded: false };
  const manifest = demoManifest.parse(JSON.parse(fs.readFileSync(path.join(config.demoBundleDir, "manifest.json"), "utf8")));
  const passwordHash = await hashPassword(config.adminPassword);
  await db().$transaction(async (tx) => {
    const admin = await tx.user.create({
      data: { email: config.adminEmail.toLowerCase(), name: "Admin", role: "ADMIN", passwordHash },
    });
    await tx.project.create({
      data: {
        name: "Fashion demo",
        description: "2,000 Fashion-MNIST images in a 64-d PCA embedding, with k-means and GMM clusterings to evaluate.",
        bundleName: manifest.name,
        n: manifest.N,
        d: manifest.D,
        classNames: manifest.class_names,
        clusterings: Object.entries(manifest.clusterings).map(([name, c]) => ({ name, k: c.K })),
        members: { create: { userId: admin.id, role: "OWNER" } },
      },
    });
  });
  return { seeded: true, adminEmail: config.adminEmail, adminPassword: config.adminPassword };
}
