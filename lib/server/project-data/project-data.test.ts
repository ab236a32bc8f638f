import { readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EMPTY_RECORD } from "@/lib/cereal/method/out-of-sample";
import { db } from "../db";
import { createTestProject } from "../projects/test-projects";
import { readManifest } from "./manifest";
import { writeProjectFile } from "./folder";
import { projectDir, projectFile } from "./paths";
import { readEarlierRecord, readEvidenceRecord, readRoundRanking, readRoundResults, removeRoundProba, writeRoundFiles } from "./round-files";

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
    const proba = Float32Array.from({ length: p.n * 3 }, (_, i) => (i % 3) / 3);
    const files = await writeRoundFiles(p, 3, { results, ranking: { scores, proba }, evidence: EMPTY_RECORD });
    expect(files).toEqual({ resultsFile: "rounds/round-3.npy", scoresFile: "rounds/round-3-scores.npy", probaFile: "rounds/round-3-proba.npy" });
    expect(Array.from(await readRoundResults(p, files.resultsFile))).toEqual(Array.from(results));
    const ranking = await readRoundRanking(p, { index: 3, ...files, temperature: 1.5, design: "proportional", eps: 0.1 });
    expect(Array.from(ranking!.scores)).toEqual(Array.from(scores));
    expect(Array.from(ranking!.rawProba!)).toEqual(Array.from(proba));
    expect(ranking).toMatchObject({ round: 3, design: "proportional", eps: 0.1, temperature: 1.5 });
    // the record round 3 estimated with; round 4 starts from it
    expect(await readEvidenceRecord(p, 3)).toEqual(EMPTY_RECORD);
    expect(await readEarlierRecord(p, 4)).toEqual(EMPTY_RECORD);
    // no temporary file is left behind, and a round before the first has no record
    expect((await readdir(path.join(projectDir(p), "rounds"))).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    expect(await readEarlierRecord(p, 0)).toBeUndefined();
    // pi is removed once no stage draws with it
    await removeRoundProba(p, 3);
    expect((await readdir(path.join(projectDir(p), "rounds"))).sort()).toEqual(["round-3-evidence.json", "round-3-scores.npy", "round-3.npy"]);
    // a pairwise round writes results only
    expect(await writeRoundFiles(p, 4, { results })).toEqual({ resultsFile: "rounds/round-4.npy", scoresFile: null, probaFile: null });
  });

  it("reads the record a round before stages left for its successor", async () => {
    const p = await project();
    await writeProjectFile(p, "rounds/round-6-record.json", JSON.stringify({ batches: [], predictions: [{ row: 2, raw: [0.5, 0.5], calibrated: [0.5, 0.5] }] }));
    expect((await readEarlierRecord(p, 7))?.predictions.get(2)?.raw).toEqual(Float32Array.from([0.5, 0.5]));
    expect((await readEvidenceRecord(p, 7))?.predictions.size).toBe(1);
  });

  it("refuses a path that leaves the project folder", async () => {
    const p = await project();
    expect(() => projectFile(p, "../other/manifest.json")).toThrow(/leaves the project folder/);
  });
});
