import type { EmbeddingMatrix } from "@/lib/cereal/method/surrogate";

/**
 * Standardization: centres every column and divides all of them by one global scale (the RMS of the centred
 * values). One scale, not per-column, keeps the embedding's geometry (relative spreads of the
 * dimensions) while putting inputs in the range the MLP's initialisation expects.
 */
export function standardization(embeddings: EmbeddingMatrix): { mean: Float64Array; scale: number } {
  const { data, n, d } = embeddings;
  if (data.length !== n * d) throw new Error(`embedding data has ${data.length} values, expected ${n} x ${d}`);
  const mean = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) mean[j] += data[i * d + j];
  for (let j = 0; j < d; j++) mean[j] /= Math.max(n, 1);
  let sq = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) {
      const c = data[i * d + j] - mean[j];
      sq += c * c;
    }
  }
  const rms = Math.sqrt(sq / Math.max(n * d, 1));
  return { mean, scale: rms > 0 ? 1 / rms : 1 };
}

/**
 * The embeddings with their standardization, in host memory: a step's batch is assembled here
 * (row copies, input dropout, mixup) and uploaded as one tensor. On wasm that is ~10x cheaper
 * than tf.gather plus elementwise kernels on a backend-resident matrix, and the upload is a
 * memcpy. Rows are standardized as they are copied, so no second N x D matrix is held (512 MB at
 * 10^6 items of D = 128); the values are the float32 ones a standardized copy would hold.
 */
export class Inputs {
  private constructor(
    private readonly raw: Float32Array,
    private readonly mean: Float64Array,
    private readonly scale: number,
    readonly n: number,
    readonly d: number,
  ) {}

  static fromEmbeddings(embeddings: EmbeddingMatrix): Inputs {
    const { mean, scale } = standardization(embeddings);
    return new Inputs(embeddings.data, mean, scale, embeddings.n, embeddings.d);
  }

  /** the standardized value of row r, column j (float32, as copyRows writes it) */
  value(r: number, j: number): number {
    return Math.fround((this.raw[r * this.d + j] - this.mean[j]) * this.scale);
  }

  /** copies the given rows, standardized, into out, starting at out row `at` */
  copyRows(rows: ArrayLike<number>, out: Float32Array, at = 0): Float32Array {
    const { d, raw, mean, scale } = this;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      if (!(r >= 0 && r < this.n)) throw new Error(`row ${r} outside 0..${this.n - 1}`);
      for (let j = 0, from = r * d, to = (at + i) * d; j < d; j++) out[to + j] = (raw[from + j] - mean[j]) * scale;
    }
    return out;
  }
}
