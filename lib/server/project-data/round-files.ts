import { recordFromJson, recordToJson, type OutOfSampleJson, type OutOfSampleRecord } from "@/lib/cereal/method/out-of-sample";
import type { Design } from "@/lib/cereal/method/designs";
import type { Ranking } from "@/lib/cereal/method/stages";
import { encodeNpy } from "@/lib/data/npy";
import { readProjectJson, removeProjectFiles, writeProjectFile } from "./folder";
import { readSharedArray } from "./array-cache";
import { readArray } from "./arrays";
import { projectFile, type ProjectFolder } from "./paths";

/**
 * What a round leaves in `rounds/` of the project folder, each file written atomically:
 * - round-R.npy: [N x 2] float32 per item (class: label or pseudo-label, -1 if none; confidence);
 * - round-R-scores.npy: [N] the acquisition scores of the rows it could draw (NaN elsewhere) and
 *   round-R-proba.npy: [N x C] its model's pi(.|x) (NaN on labeled rows): the ranking that later
 *   stages draw with (lib/cereal/method/stages.ts); pi is kept for the latest two rounds only.
 *   A pairwise round writes its p(.|x) [N x K'] there too, kept: later rounds correct the
 *   stages its model drew (rounds/pair-stage-models.ts);
 * - round-R-evidence.json: the out-of-sample record the round estimated with (its settled
 *   stages' evidence; lib/cereal/method/out-of-sample.ts). Rounds before issue #18 wrote
 *   round-R-record.json instead: the record after round R, which round R + 1 read;
 * - round-R-weights.npy: [P] float32, its surrogate's trained weights, when the project warm-starts
 *   (fixmatchWarmSteps): round R + 1 trains on from them, and a round resumed after a kill reads
 *   the same file again, so it continues identically. Kept for the latest round only.
 * Paths returned here are stored on the Round row, relative to the project folder.
 */
export interface RoundFiles {
  /** [N x 2] float32 */
  readonly results: Float32Array;
  /** [N] float32 and [N x C] float32; clusterwise rounds that rank rows for later stages */
  readonly ranking?: { readonly scores: Float32Array; readonly proba: Float32Array | null };
  /** [N x K'] float32: a pairwise round's p(.|x) */
  readonly pairProba?: Float32Array | null;
  readonly evidence?: OutOfSampleRecord;
  /** the surrogate's trained weights, flat (warm start) */
  readonly weights?: Float32Array | null;
}

const resultsFile = (round: number) => `rounds/round-${round}.npy`;
const scoresFile = (round: number) => `rounds/round-${round}-scores.npy`;
const probaFile = (round: number) => `rounds/round-${round}-proba.npy`;
const evidenceFile = (round: number) => `rounds/round-${round}-evidence.json`;
const legacyRecordFile = (round: number) => `rounds/round-${round}-record.json`;
const weightsFile = (round: number) => `rounds/round-${round}-weights.npy`;

export async function writeRoundFiles(
  project: ProjectFolder,
  round: number,
  files: RoundFiles,
): Promise<{ resultsFile: string; scoresFile: string | null; probaFile: string | null }> {
  const n = files.results.length / 2;
  await writeProjectFile(project, resultsFile(round), encodeNpy(files.results, [n, 2]));
  const { ranking } = files;
  if (ranking) await writeProjectFile(project, scoresFile(round), encodeNpy(ranking.scores, [n]));
  const proba = ranking?.proba ?? files.pairProba ?? null;
  if (proba) await writeProjectFile(project, probaFile(round), encodeNpy(proba, [n, proba.length / n]));
  if (files.evidence) await writeProjectFile(project, evidenceFile(round), JSON.stringify(recordToJson(files.evidence)));
  if (files.weights) await writeProjectFile(project, weightsFile(round), encodeNpy(files.weights, [files.weights.length]));
  return { resultsFile: resultsFile(round), scoresFile: ranking ? scoresFile(round) : null, probaFile: proba ? probaFile(round) : null };
}

/** Removes a round's pi file (stages draw with the latest round's ranking; the previous one is kept while a draw may still read it). */
export async function removeRoundProba(project: ProjectFolder, round: number) {
  if (round >= 0) await removeProjectFiles(project, [probaFile(round)]);
}

/** The pi(.|x) [N x C] a finished round's model left (its Round row's probaFile), or undefined once removed (pi is kept for the latest two rounds). */
export async function readRoundProba(project: ProjectFolder, file: string): Promise<{ proba: Float32Array; numClasses: number } | undefined> {
  try {
    const { data, shape } = await readArray(project, file);
    return { proba: data as Float32Array, numClasses: shape[1] };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** The weights round `round`'s surrogate trained to, or undefined when it left none (it ran before warm start, cold, or without a surrogate). */
export async function readRoundWeights(project: ProjectFolder, round: number): Promise<Float32Array | undefined> {
  if (round < 0) return undefined;
  try {
    return (await readArray(project, weightsFile(round))).data as Float32Array;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Removes a round's weights once the round after it finished (only the latest round's are read). */
export async function removeRoundWeights(project: ProjectFolder, round: number) {
  if (round >= 0) await removeProjectFiles(project, [weightsFile(round)]);
}

/** A round's per-item results [N x 2], by the path stored on its Round row: read through the per-process cache (array-cache.ts), never to be written into. */
export async function readRoundResults(project: ProjectFolder, file: string): Promise<Float32Array> {
  return (await readSharedArray(project, file)).data as Float32Array;
}

// The latest ranking is read once per round, not once per stage.
let cachedRanking: { key: string; ranking: Ranking } | null = null;

/** The ranking a finished round left (its scores, its model's pi, design and temperature), read once per round. */
export async function readRoundRanking(
  project: ProjectFolder,
  round: { index: number; scoresFile: string | null; probaFile: string | null; temperature: number | null; design: Design; eps: number },
): Promise<Ranking | null> {
  if (!round.scoresFile) return null;
  const key = `${projectFile(project, round.scoresFile)}|${round.probaFile}`;
  if (cachedRanking?.key !== key) {
    const scores = (await readArray(project, round.scoresFile)).data as Float32Array;
    const rawProba = round.probaFile ? ((await readArray(project, round.probaFile)).data as Float32Array) : null;
    cachedRanking = { key, ranking: { round: round.index, design: round.design, eps: round.eps, scores, rawProba, temperature: round.temperature ?? 1 } };
  }
  return cachedRanking.ranking;
}

/** The out-of-sample record round `round` estimated with; a round that ran before issue #18 read its predecessor's record instead. */
export function readEvidenceRecord(project: ProjectFolder, round: number): Promise<OutOfSampleRecord | undefined> {
  return firstRecord(project, round >= 1 ? [evidenceFile(round), legacyRecordFile(round - 1)] : [evidenceFile(round)]);
}

/**
 * What round `round` starts its record from: its predecessor's (settled stages' evidence, kept
 * for the stages drawn before issue #18, which have none of their own), or the record a round
 * before issue #18 left for it.
 */
export function readEarlierRecord(project: ProjectFolder, round: number): Promise<OutOfSampleRecord | undefined> {
  return firstRecord(project, round >= 1 ? [evidenceFile(round - 1), legacyRecordFile(round - 1)] : []);
}

async function firstRecord(project: ProjectFolder, files: readonly string[]): Promise<OutOfSampleRecord | undefined> {
  for (const file of files) {
    try {
      return recordFromJson(await readProjectJson<OutOfSampleJson>(project, file));
    } catch {
      // not written (or a project whose earlier rounds ran before the record existed: the ppi estimators then use the labels' weights)
    }
  }
  return undefined;
}
