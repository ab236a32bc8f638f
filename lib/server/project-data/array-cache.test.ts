import { describe, expect, it } from "vitest";
import { encodeNpy } from "@/lib/data/npy";
import { db } from "../db";
import { createTestProject } from "../projects/test-projects";
import { readSharedArray, sharedArrayCacheSize, SHARED_ARRAY_ENTRIES } from "./array-cache";
import { writeProjectFile } from "./folder";
import { readRoundResults, writeRoundFiles } from "./round-files";

const project = async () => db().project.findUniqueOrThrow({ where: { id: (await createTestProject()).projectId } });

describe("the shared array cache", () => {
  it("serves the same array while the file is unchanged, and the new one as soon as it is rewritten", async () => {
    const p = await project();
    const first = Float32Array.from({ length: p.n * 2 }, (_, i) => i);
    await writeRoundFiles(p, 0, { results: first });
    const read = await readRoundResults(p, "rounds/round-0.npy");
    expect(Array.from(read)).toEqual(Array.from(first));
    // a warm read is the very same array, not a copy
    expect(await readRoundResults(p, "rounds/round-0.npy")).toBe(read);
    // the round is written again (a retried round's atomic rewrite, same size): never the old values
    const second = Float32Array.from({ length: p.n * 2 }, (_, i) => -i);
    await writeRoundFiles(p, 0, { results: second });
    expect(Array.from(await readRoundResults(p, "rounds/round-0.npy"))).toEqual(Array.from(second));
  });

  it("after a new round finishes, reads that round's file, and keeps at most SHARED_ARRAY_ENTRIES arrays", async () => {
    const p = await project();
    for (let round = 0; round < SHARED_ARRAY_ENTRIES + 2; round++) {
      const values = Float32Array.from({ length: p.n * 2 }, () => round);
      await writeRoundFiles(p, round, { results: values });
      expect((await readRoundResults(p, `rounds/round-${round}.npy`))[0]).toBe(round);
      expect(sharedArrayCacheSize().entries).toBeLessThanOrEqual(SHARED_ARRAY_ENTRIES);
    }
    // int32 files too (a clustering's assignments), by their own key
    await writeProjectFile(p, "rounds/assignments.npy", encodeNpy(Int32Array.from([3, 1, 2]), [3]));
    expect(Array.from((await readSharedArray(p, "rounds/assignments.npy")).data)).toEqual([3, 1, 2]);
    expect(sharedArrayCacheSize().bytes).toBeLessThanOrEqual(SHARED_ARRAY_ENTRIES * p.n * 2 * 4);
  });
});
