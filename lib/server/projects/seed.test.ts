import { describe, expect, it } from "vitest";
import { db } from "../db";
import { seedIfEmpty } from "./seed";

describe("seedIfEmpty", () => {
  it("imports the clusterwise and the pairwise demo with small batches for a quick first round", async () => {
    expect((await seedIfEmpty()).seeded).toBe(true);
    const projects = await db().project.findMany({ orderBy: { createdAt: "asc" }, include: { _count: { select: { items: true, classes: true } } } });
    expect(projects.map((p) => [p.name, p.mode, p.seedSize, p.batchSize, p.fixmatchSteps, p._count.items, p._count.classes])).toEqual([
      ["Fashion demo", "clusterwise", 20, 10, 64, 2000, 10],
      ["Fashion demo (pairwise)", "pairwise", 10, 10, 64, 2000, 10],
    ]);
    expect(new Set(projects.map((p) => p.dataPath)).size).toBe(2);
  });
});
