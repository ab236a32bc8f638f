import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EMPTY_RECORD } from "@/lib/cereal/method/out-of-sample";
import { db } from "../db";
import { createTestProject } from "../projects/test-projects";
import { readManifest } from "./manifest";
import { projectDir, projectFile } from "./paths";
import { readOutOfSampleRecord, readRoundResults, readRoundScores, writeRoundFiles } from "./round-files";

const project = async () => db().project.findUniqueOrThrow({ where: { id: (await createTestProject()).projectId } });

describe("project data", () => {
  it("reads the stored manifest, and names the file and the field when it is off", async () => {
    const p = await project();
    expect((await readManifest(p)).N).toBe(p.n);
    await writeFile(projectFile(p, "manifest.json"), JSON.stringify({ N: p.n, embeddings: 7 }));
    await expect(readManifest(p)).rejects.toThrow(/manifest\.json: embeddings: .*string/);
  });

  it("writes a round's files atomically and reads them back", async () => {
    const p = await project();
    const results = Float32Array.from({ length: p.n * 2 }, (_, i) => i / 10);
    const scores = Float32Array.from({ length: p.n }, (_, i) => (i % 2 ? Number.NaN : i));
    const files = await writeRoundFiles(p, 3, { results, scores, record: EMPTY_RECORD });
    expect(files).toEqual({ resultsFile: "rounds/round-3.npy", scoresFile: "rounds/round-3-scores.npy" });
    expect(Array.from(await readRoundResults(p, files.resultsFile))).toEqual(Array.from(results));
    expect(Array.from(await readRoundScores(p, files.scoresFile!))).toEqual(Array.from(scores));
    expect(await readOutOfSampleRecord(p, 3)).toEqual(EMPTY_RECORD);
    // no temporary file is left behind, and a round before the first has no record
    expect((await readdir(path.join(projectDir(p), "rounds"))).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    expect(await readOutOfSampleRecord(p, -1)).toBeUndefined();
    // a pairwise round writes results only
    expect(await writeRoundFiles(p, 4, { results })).toEqual({ resultsFile: "rounds/round-4.npy", scoresFile: null });
  });

  it("refuses a path that leaves the project folder", async () => {
    const p = await project();
    expect(() => projectFile(p, "../other/manifest.json")).toThrow(/leaves the project folder/);
  });
});
