/**
 * A fast pairwise surrogate without TF.js, for tests and `simulate --mode pairwise --surrogate
 * fake`: the "same" answers link items into connected components (union-find); the largest
 * K' - 1 components get cluster ids 0..K'-2 and all others share K' - 1; every row then takes
 * the k-NN vote of the paired items (knn-surrogate.ts) over those ids. It ignores "different"
 * answers beyond leaving their items apart, so it learns from answers, just less than MCL.
 */
import { createKnnSurrogate, type KnnOptions } from "./knn-surrogate";
import type { LabeledPairs, PairwiseSurrogate, PairwiseSurrogateFactory } from "../pairwise/pair-surrogate";
import type { EmbeddingMatrix, Surrogate } from "../method/surrogate";

/** component ids of the rows in answered pairs, largest component first, capped at numOutputs - 1 */
export function sameComponents(pairs: LabeledPairs, n: number, numOutputs: number): { rows: Int32Array; labels: Int32Array } {
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  const paired = new Uint8Array(n);
  for (let i = 0; i < pairs.a.length; i++) {
    paired[pairs.a[i]] = paired[pairs.b[i]] = 1;
    if (pairs.same[i]) parent[find(pairs.a[i])] = find(pairs.b[i]);
  }
  const rows = Int32Array.from({ length: n }, (_, r) => r).filter((r) => paired[r] === 1);
  const size = new Map<number, number>();
  for (const r of rows) size.set(find(r), (size.get(find(r)) ?? 0) + 1);
  // ties in size: the component with the smaller root first, so the ids are deterministic
  const ranked = [...size.entries()].sort((x, y) => y[1] - x[1] || x[0] - y[0]).map(([root]) => root);
  const id = new Map(ranked.map((root, i) => [root, Math.min(i, numOutputs - 1)]));
  return { rows, labels: Int32Array.from(rows, (r) => id.get(find(r))!) };
}

export function createPairComponentsSurrogate(embeddings: EmbeddingMatrix, numOutputs: number, options: KnnOptions = {}): PairwiseSurrogate {
  let knn: Surrogate | null = null;
  return {
    numOutputs,
    async fit(pairs) {
      knn?.dispose();
      knn = createKnnSurrogate(embeddings, numOutputs, options);
      const labeled = sameComponents(pairs, embeddings.n, numOutputs);
      await knn.fit(labeled, new Int32Array(0), { seed: 0, fixmatch: false });
      return { backend: "fake-components", trainSeconds: 0, steps: 0, finalLoss: null };
    },
    async predictProba(rows) {
      if (!knn) throw new Error("pair-components surrogate: predict before fit");
      return knn.predictProba(rows);
    },
    dispose() {
      knn?.dispose();
      knn = null;
    },
  };
}

export const createPairComponentsSurrogateFactory =
  (options: KnnOptions = {}): PairwiseSurrogateFactory =>
  async (embeddings, numOutputs) =>
    createPairComponentsSurrogate(embeddings, numOutputs, options);
