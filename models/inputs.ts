import type { EmbeddingMatrix } from "@/lib/cereal/method/surrogate";

/**
 * Standardization: centres every column and divides all of them by one global scale (the RMS of the centred
 * values). One scale, not per-column, keeps the embedding's geometry (relative spreads of the
 * dimensions) while putting inputs in the range the MLP's initialisation expects.
 */
export function standardize(embeddings: EmbeddingMatrix): Float32Array {
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
  const scale = rms > 0 ? 1 / rms : 1;
  const out = new Float32Array(n * d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) out[i * d + j] = (data[i * d + j] - mean[j]) * scale;
  return out;
}

/**
 * The standardized embeddings, kept in host memory: a step's batch is assembled here (row
 * copies, input dropout, mixup) and uploaded as one tensor. On wasm that is ~10x cheaper than
 * tf.gather plus elementwise kernels on a backend-resident matrix, and the upload is a memcpy.
 */
export class Inputs {
  constructor(
    readonly data: Float32Array,
    readonly n: number,
    readonly d: number,
  ) {}

  static fromEmbeddings(embeddings: EmbeddingMatrix): Inputs {
    return new Inputs(standardize(embeddings), embeddings.n, embeddings.d);
  }

  /** copies the given rows into out, starting at out row `at` */
  copyRows(rows: ArrayLike<number>, out: Float32Array, at = 0): Float32Array {
    const d = this.d;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i];
      if (!(r >= 0 && r < this.n)) throw new Error(`row ${r} outside 0..${this.n - 1}`);
      out.set(this.data.subarray(r * d, r * d + d), (at + i) * d);
    }
    return out;
  }
}
