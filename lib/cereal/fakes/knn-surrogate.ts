/**
 * A fast surrogate without TF.js: distance-weighted k nearest labeled neighbours. It learns from
 * the labels (its accuracy grows with them), so it drives the simulator end to end in tests and
 * in `simulate --surrogate fake` in milliseconds. MC passes drop input features (rate 0.2), the
 * analogue of dropout, so BALD has disagreement to measure. It ignores FixMatch.
 */
import { Random } from "../../random/named-streams";
import type { EmbeddingMatrix, FitOptions, FitReport, LabeledRows, Surrogate, SurrogateFactory } from "../method/surrogate";

export interface KnnOptions {
  /** neighbours that vote (default 5) */
  readonly k?: number;
  /** share of probability spread uniformly, so no probability is exactly 0 (default 0.05) */
  readonly smoothing?: number;
  /** feature drop rate of an MC pass (default 0.2) */
  readonly dropRate?: number;
}

export function createKnnSurrogate(embeddings: EmbeddingMatrix, numClasses: number, options: KnnOptions = {}): Surrogate {
  const k = options.k ?? 5;
  const smoothing = options.smoothing ?? 0.05;
  const dropRate = options.dropRate ?? 0.2;
  const { data, d } = embeddings;
  let labeled: LabeledRows = { rows: new Int32Array(0), labels: new Int32Array(0) };

  /** probabilities for one query row; `keep` masks features (null = all) */
  const predictRow = (row: number, keep: Uint8Array | null, out: Float32Array, offset: number): void => {
    const m = labeled.rows.length;
    const kk = Math.min(k, m);
    const bestDist = new Float64Array(kk).fill(Infinity);
    const bestLabel = new Int32Array(kk).fill(-1);
    const q = row * d;
    for (let j = 0; j < m; j++) {
      const r = labeled.rows[j] * d;
      let dist = 0;
      for (let f = 0; f < d; f++) {
        if (keep && !keep[f]) continue;
        const diff = data[q + f] - data[r + f];
        dist += diff * diff;
      }
      // insertion into the sorted list of the kk nearest
      if (dist >= bestDist[kk - 1]) continue;
      let p = kk - 1;
      while (p > 0 && bestDist[p - 1] > dist) {
        bestDist[p] = bestDist[p - 1];
        bestLabel[p] = bestLabel[p - 1];
        p--;
      }
      bestDist[p] = dist;
      bestLabel[p] = labeled.labels[j];
    }
    // p(c) = (1 - s) * (weighted votes for c) / (all votes) + s / C
    for (let c = 0; c < numClasses; c++) out[offset + c] = 0;
    let votes = 0;
    for (let p = 0; p < kk; p++) {
      const w = 1 / (Math.sqrt(bestDist[p]) + 1e-6);
      out[offset + bestLabel[p]] += w;
      votes += w;
    }
    for (let c = 0; c < numClasses; c++) out[offset + c] = ((1 - smoothing) * out[offset + c]) / votes + smoothing / numClasses;
  };

  const predict = (rows: Int32Array, keep: Uint8Array | null, out: Float32Array, offset: number): void => {
    if (labeled.rows.length === 0) throw new Error("knn surrogate: predict before fit");
    for (let i = 0; i < rows.length; i++) predictRow(rows[i], keep, out, offset + i * numClasses);
  };

  return {
    async fit(rows: LabeledRows, unlabeled: Int32Array, fitOptions: FitOptions): Promise<FitReport> {
      void unlabeled;
      void fitOptions;
      labeled = { rows: Int32Array.from(rows.rows), labels: Int32Array.from(rows.labels) };
      return { backend: "fake-knn", trainSeconds: 0, steps: 0, maskRate: null, finalLoss: null };
    },
    async predictProba(rows) {
      const out = new Float32Array(rows.length * numClasses);
      predict(rows, null, out, 0);
      return out;
    },
    async predictProbaMc(rows, passes, seed) {
      const random = new Random(seed);
      const out = new Float32Array(passes * rows.length * numClasses);
      const keep = new Uint8Array(d);
      for (let p = 0; p < passes; p++) {
        for (let f = 0; f < d; f++) keep[f] = random.next() < dropRate ? 0 : 1;
        predict(rows, keep, out, p * rows.length * numClasses);
      }
      return out;
    },
    dispose() {
      labeled = { rows: new Int32Array(0), labels: new Int32Array(0) };
    },
  };
}

export const createKnnSurrogateFactory =
  (options: KnnOptions = {}): SurrogateFactory =>
  async (embeddings, numClasses) =>
    createKnnSurrogate(embeddings, numClasses, options);
