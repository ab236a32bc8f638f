/**
 * A round's estimator input as plain data (`cereal simulate --save-inputs`), so estimators can be replayed offline on the
 * rounds of a recorded run (bench/estimator-replay.ts) without training its surrogates again: the labels, the unlabeled rows,
 * the draws and the out-of-sample record as JSON, pi (the rounds' largest part) as the raw Float32 values beside it.
 */
import type { Draw } from "../method/designs";
import type { EstimatorInput } from "../method/estimators";
import { recordFromJson, recordToJson, type OutOfSampleJson } from "../method/out-of-sample";

/** round R's files in a run's inputs folder: the JSON, and pi's raw Float32 values (cereal simulate --save-inputs writes them, bench/estimator-replay.ts reads them) */
export function estimatorInputFiles(round: number): { readonly json: string; readonly proba: string } {
  return { json: `round-${round}.json`, proba: `round-${round}.proba` };
}

/** pi's bytes as stored */
export function probaBytes(proba: Float32Array): Uint8Array {
  return new Uint8Array(proba.buffer, proba.byteOffset, proba.byteLength);
}

/** pi from stored bytes, copied (a file's bytes may sit at any offset of a shared buffer, which a Float32Array view cannot) */
export function probaFromBytes(bytes: Uint8Array): Float32Array {
  if (bytes.byteLength % 4 !== 0) throw new Error(`probaFromBytes: ${bytes.byteLength} bytes are not whole Float32 values`);
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

export interface EstimatorInputJson {
  readonly n: number;
  readonly numClasses: number;
  readonly rows: number[];
  readonly labels: number[];
  readonly unlabeled: number[];
  readonly draws: readonly Draw[];
  readonly outOfSample: OutOfSampleJson | null;
  /** whether pi comes beside it (null in the input when no surrogate ran) */
  readonly proba: boolean;
}

/** the input as JSON, and pi to store beside it; a bootstrap draw (multiplicity, pseudo-labels) is not a round's input */
export function estimatorInputToJson(input: EstimatorInput): { json: EstimatorInputJson; proba: Float32Array | null } {
  if (input.multiplicity || input.pseudoLabels) throw new Error("estimatorInputToJson: a bootstrap draw's input is not kept");
  return {
    json: {
      n: input.n,
      numClasses: input.numClasses,
      rows: Array.from(input.labeled.rows),
      labels: Array.from(input.labeled.labels),
      unlabeled: Array.from(input.unlabeled),
      draws: input.draws,
      outOfSample: input.outOfSample ? recordToJson(input.outOfSample) : null,
      proba: input.proba !== null,
    },
    proba: input.proba,
  };
}

export function estimatorInputFromJson(json: EstimatorInputJson, proba: Float32Array | null): EstimatorInput {
  if (json.proba !== (proba !== null)) throw new Error(`estimatorInputFromJson: the input ${json.proba ? "has" : "has no"} pi, but ${proba ? "some" : "none"} came with it`);
  if (proba && proba.length !== json.unlabeled.length * json.numClasses)
    throw new Error(`estimatorInputFromJson: pi holds ${proba.length} values, not unlabeled x classes = ${json.unlabeled.length * json.numClasses}`);
  return {
    n: json.n,
    numClasses: json.numClasses,
    labeled: { rows: Int32Array.from(json.rows), labels: Int32Array.from(json.labels) },
    unlabeled: Int32Array.from(json.unlabeled),
    proba,
    draws: json.draws,
    ...(json.outOfSample ? { outOfSample: recordFromJson(json.outOfSample) } : {}),
  };
}
