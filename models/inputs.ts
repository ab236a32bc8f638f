import type { EmbeddingMatrix } from "@/lib/cereal/surrogate";

/**
 * Centres every column and divides all of them by one global scale (the RMS of the centred
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
