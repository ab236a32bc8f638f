/**
 * Euclidean silhouettes of many clusterings of the same points in one pass: every pairwise
 * distance d(i, j) = sqrt(|x_i|^2 + |x_j|^2 - 2 x_i.x_j) (scikit-learn's formula, as lib/metrics)
 * is computed once and added to each clustering's per-cluster distance sums, so C clusterings cost
 * N^2 (D + 2C) / 2 instead of C N^2 D / 2 (ACE scores every clustering in every space).
 * s(i) = (b - a) / max(a, b), 0 in a singleton cluster (Rousseeuw 1987), the mean over items;
 * NaN for a clustering with fewer than 2 or more than N - 1 clusters (sklearn refuses those).
 * Memory: N x K_c doubles per clustering.
 */
import { denseLabels, type Labels } from "@/lib/metrics";

export function silhouettesOfClusterings(x: Float32Array | Float64Array, d: number, clusterings: readonly Labels[]): number[] {
  const n = x.length / d;
  if (!Number.isInteger(n)) throw new RangeError(`points of length ${x.length} are not an [N, ${d}] matrix`);
  const points = Float64Array.from(x);
  const sq = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let t = 0; t < d; t++) s += points[i * d + t] * points[i * d + t];
    sq[i] = s;
  }
  const valid = clusterings.map((labels) => {
    if (labels.length !== n) throw new RangeError(`a clustering of ${labels.length} items for ${n} points`);
    const { ids, k } = denseLabels(labels);
    return { ids, k, ok: k >= 2 && k <= n - 1 };
  });
  const scored = valid.filter((v) => v.ok);
  const c = scored.length;
  // item-major id table and sums, so the inner loop over clusterings walks memory in order
  const ids = new Int32Array(n * c);
  const offsets = new Int32Array(c + 1);
  scored.forEach((v, q) => {
    offsets[q + 1] = offsets[q] + v.k;
    for (let i = 0; i < n; i++) ids[i * c + q] = v.ids[i];
  });
  const width = offsets[c];
  const sums = new Float64Array(n * width);
  for (let i = 0; i < n; i++) {
    const a = i * d;
    for (let j = i + 1; j < n; j++) {
      const b = j * d;
      let dot = 0;
      for (let t = 0; t < d; t++) dot += points[a + t] * points[b + t];
      const dist = Math.sqrt(Math.max(sq[i] + sq[j] - 2 * dot, 0));
      const rowI = i * width;
      const rowJ = j * width;
      for (let q = 0; q < c; q++) {
        sums[rowI + offsets[q] + ids[j * c + q]] += dist;
        sums[rowJ + offsets[q] + ids[i * c + q]] += dist;
      }
    }
  }
  const scores = scored.map((v, q) => {
    const sizes = new Float64Array(v.k);
    for (let i = 0; i < n; i++) sizes[v.ids[i]]++;
    let total = 0;
    for (let i = 0; i < n; i++) {
      const own = v.ids[i];
      if (sizes[own] <= 1) continue;
      const row = i * width + offsets[q];
      const a = sums[row + own] / (sizes[own] - 1);
      let b = Infinity;
      for (let cl = 0; cl < v.k; cl++) if (cl !== own) b = Math.min(b, sums[row + cl] / sizes[cl]);
      const m = Math.max(a, b);
      if (m > 0) total += (b - a) / m;
    }
    return total / n;
  });
  let next = 0;
  return valid.map((v) => (v.ok ? scores[next++] : NaN));
}
