/**
 * A surrogate that knows pi(.|x) in advance and learns nothing: the tests' fake. With one-hot
 * rows of the reference labels it is the truth-returning oracle; with noisy rows it is a
 * surrogate of known noise (pass the same rows the true labels were drawn from); with a generator's
 * posterior (bench/bayes-bound.ts --write-posterior, `cereal simulate --surrogate fixed --proba FILE`) it
 * is the best any surrogate could be.
 */
import type { NpyArray } from "@/lib/data/npy";
import { firstRowFault } from "@/lib/data/probability-rows";
import type { EmbeddingMatrix, FitReport, LabeledRows, Surrogate } from "../method/surrogate";

export function createFixedSurrogate(proba: Float32Array, numClasses: number): Surrogate {
  let disposed = false;
  const rowsOf = (rows: Int32Array): Float32Array => {
    if (disposed) throw new Error("fixed surrogate: used after dispose()");
    const out = new Float32Array(rows.length * numClasses);
    for (let i = 0; i < rows.length; i++) out.set(proba.subarray(rows[i] * numClasses, (rows[i] + 1) * numClasses), i * numClasses);
    return out;
  };
  return {
    async fit(labeled: LabeledRows): Promise<FitReport> {
      void labeled;
      return { backend: "fake", trainSeconds: 0, steps: 0, maskRate: null, finalLoss: null };
    },
    async predictProba(rows) {
      return rowsOf(rows);
    },
    async predictProbaMc(rows, passes) {
      const one = rowsOf(rows);
      const out = new Float32Array(passes * one.length);
      for (let p = 0; p < passes; p++) out.set(one, p * one.length);
      return out;
    },
    dispose() {
      disposed = true;
    },
  };
}

/** one-hot rows of the labels: the oracle surrogate */
export function oneHot(labels: Int32Array, numClasses: number): Float32Array {
  const out = new Float32Array(labels.length * numClasses);
  for (let i = 0; i < labels.length; i++) out[i * numClasses + labels[i]] = 1;
  return out;
}

/** the factory form, for the simulator: the embeddings are ignored */
export function fixedSurrogateFactory(proba: Float32Array) {
  return async (embeddings: EmbeddingMatrix, numClasses: number): Promise<Surrogate> => {
    if (proba.length !== embeddings.n * numClasses)
      throw new Error(`fixed surrogate: ${proba.length} probabilities for ${embeddings.n} rows x ${numClasses} classes`);
    return createFixedSurrogate(proba, numClasses);
  };
}

/** pi(.|x) read from a .npy array: float32, items x classes, each row a distribution; `source` names it in the error */
export function probaFromNpy(array: NpyArray, n: number, numClasses: number, source: string): Float32Array {
  const { dtype, shape, data } = array;
  if (dtype !== "float32" || shape.length !== 2 || shape[0] !== n || shape[1] !== numClasses)
    throw new Error(`${source}: expected float32 probabilities of shape [${n}, ${numClasses}] (items x classes), got ${dtype} [${shape.join(", ")}]`);
  const fault = firstRowFault(data, numClasses);
  if (fault && "value" in fault) throw new Error(`${source}: row ${fault.row} holds ${fault.value}, not a probability`);
  if (fault) throw new Error(`${source}: row ${fault.row} sums to ${fault.sum}, not 1: each row must be pi(.|x) over the ${numClasses} classes`);
  return data as Float32Array;
}
