import { recordFromJson, recordToJson, type OutOfSampleJson, type OutOfSampleRecord } from "@/lib/cereal/method/out-of-sample";
import { encodeNpy } from "@/lib/data/npy";
import { readProjectJson, writeProjectFile } from "./folder";
import { readArray } from "./arrays";
import { projectFile, type ProjectFolder } from "./paths";

/**
 * What a round leaves in `rounds/` of the project folder, each file written atomically:
 * - round-R.npy: [N x 2] float32 per item (class: label or pseudo-label, -1 if none; confidence);
 * - round-R-scores.npy: [N] the acquisition scores of the pool (NaN outside it), the ranking
 *   overflow tasks are drawn with;
 * - round-R-record.json: the earlier models' out-of-sample view (lib/cereal/method/out-of-sample.ts).
 * Paths returned here are stored on the Round row, relative to the project folder.
 */
export interface RoundFiles {
  /** [N x 2] float32 */
  readonly results: Float32Array;
  /** [N] float32; clusterwise rounds only */
  readonly scores?: Float32Array;
  readonly record?: OutOfSampleRecord;
}

const resultsFile = (round: number) => `rounds/round-${round}.npy`;
const scoresFile = (round: number) => `rounds/round-${round}-scores.npy`;
const recordFile = (round: number) => `rounds/round-${round}-record.json`;

export async function writeRoundFiles(project: ProjectFolder, round: number, files: RoundFiles): Promise<{ resultsFile: string; scoresFile: string | null }> {
  const n = files.results.length / 2;
  await writeProjectFile(project, resultsFile(round), encodeNpy(files.results, [n, 2]));
  if (files.scores) await writeProjectFile(project, scoresFile(round), encodeNpy(files.scores, [files.scores.length]));
  if (files.record) await writeProjectFile(project, recordFile(round), JSON.stringify(recordToJson(files.record)));
  return { resultsFile: resultsFile(round), scoresFile: files.scores ? scoresFile(round) : null };
}

/** A round's per-item results [N x 2], by the path stored on its Round row. */
export async function readRoundResults(project: ProjectFolder, file: string): Promise<Float32Array> {
  return (await readArray(project, file)).data as Float32Array;
}

// The latest ranking is read once per round, not once per request.
let cachedScores: { key: string; scores: Float32Array } | null = null;

/** A round's pool scores [N] (NaN outside its pool), by the path stored on its Round row. */
export async function readRoundScores(project: ProjectFolder, file: string): Promise<Float32Array> {
  const key = projectFile(project, file);
  if (cachedScores?.key !== key) cachedScores = { key, scores: (await readArray(project, file)).data as Float32Array };
  return cachedScores.scores;
}

/** The out-of-sample record as round `round` left it; none before round 0. */
export async function readOutOfSampleRecord(project: ProjectFolder, round: number): Promise<OutOfSampleRecord | undefined> {
  if (round < 0) return undefined;
  try {
    return recordFromJson(await readProjectJson<OutOfSampleJson>(project, recordFile(round)));
  } catch {
    // a project whose earlier rounds ran before the record existed: the ppi estimators fall back to the labels' weights
    return undefined;
  }
}
