/**
 * The symmetric k-nearest-neighbour graph of spectral clustering, stored sparse (CSR):
 * A = (C + C^T) / 2 with C[i][j] = 1 when j is among the k nearest other points of i (Euclidean),
 * scikit-learn's affinity="nearest_neighbors" without self loops. Neighbours are found exactly by
 * brute force, each pair's distance computed once (O(N^2 D) time, O(N k) memory): about N^2 D / 2
 * multiply-adds, the cost that bounds spectral clustering here (see README.md).
 */

export interface SparseSymmetric {
  readonly n: number;
  /** row i's entries are cols/values[rowStart[i] .. rowStart[i + 1]) */
  readonly rowStart: Int32Array;
  readonly cols: Int32Array;
  readonly values: Float64Array;
}

/** k nearest other points of every point: n x k indices, nearest first. */
export function nearestNeighbours(points: Float32Array | Float64Array, n: number, d: number, k: number): Int32Array {
  if (k < 1 || k > n - 1) throw new RangeError(`need 1 <= neighbours <= ${n - 1} (got ${k})`);
  const x = Float64Array.from(points);
  const sq = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += x[i * d + j] * x[i * d + j];
    sq[i] = s;
  }
  // per point: the k best (distance, index) so far, sorted ascending; worst[i] = its k-th distance
  const bestD = new Float64Array(n * k).fill(Infinity);
  const bestI = new Int32Array(n * k).fill(-1);
  const insert = (i: number, dist: number, j: number) => {
    const o = i * k;
    let p = k - 1;
    while (p > 0 && bestD[o + p - 1] > dist) {
      bestD[o + p] = bestD[o + p - 1];
      bestI[o + p] = bestI[o + p - 1];
      p--;
    }
    bestD[o + p] = dist;
    bestI[o + p] = j;
  };
  const consider = (i: number, j: number, dot: number) => {
    const dist = sq[i] + sq[j] - 2 * dot;
    if (dist < bestD[i * k + k - 1]) insert(i, dist, j);
    if (dist < bestD[j * k + k - 1]) insert(j, dist, i);
  };
  const pairDot = (i: number, j: number) => {
    let dot = 0;
    for (let t = 0, a = i * d, b = j * d; t < d; t++) dot += x[a + t] * x[b + t];
    return dot;
  };
  // blocks of four rows against every later row: each loaded x_j feeds four products
  let i0 = 0;
  for (; i0 + 4 <= n; i0 += 4) {
    for (let r = i0; r < i0 + 4; r++) for (let j = r + 1; j < i0 + 4; j++) consider(r, j, pairDot(r, j));
    const a0 = i0 * d;
    const a1 = a0 + d;
    const a2 = a1 + d;
    const a3 = a2 + d;
    for (let j = i0 + 4; j < n; j++) {
      const b = j * d;
      let s0 = 0;
      let s1 = 0;
      let s2 = 0;
      let s3 = 0;
      for (let t = 0; t < d; t++) {
        const v = x[b + t];
        s0 += x[a0 + t] * v;
        s1 += x[a1 + t] * v;
        s2 += x[a2 + t] * v;
        s3 += x[a3 + t] * v;
      }
      consider(i0, j, s0);
      consider(i0 + 1, j, s1);
      consider(i0 + 2, j, s2);
      consider(i0 + 3, j, s3);
    }
  }
  for (let i = i0; i < n; i++) for (let j = i + 1; j < n; j++) consider(i, j, pairDot(i, j));
  return bestI;
}

/** A = (C + C^T) / 2 from the neighbour lists (n x k). */
export function symmetricKnnGraph(neighbours: Int32Array, n: number, k: number): SparseSymmetric {
  const count = new Int32Array(n);
  for (let i = 0; i < n; i++)
    for (let t = 0; t < k; t++) {
      count[i]++;
      count[neighbours[i * k + t]]++;
    }
  const start = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) start[i + 1] = start[i] + count[i];
  const rawCols = new Int32Array(start[n]);
  const fill = start.slice(0, n);
  for (let i = 0; i < n; i++)
    for (let t = 0; t < k; t++) {
      const j = neighbours[i * k + t];
      rawCols[fill[i]++] = j;
      rawCols[fill[j]++] = i;
    }
  // merge duplicates: an entry listed twice (mutual neighbours) has weight 1, once 1/2
  const rowStart = new Int32Array(n + 1);
  const cols: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = Array.from(rawCols.subarray(start[i], start[i + 1])).sort((a, b) => a - b);
    for (let p = 0; p < row.length; ) {
      let q = p + 1;
      while (q < row.length && row[q] === row[p]) q++;
      cols.push(row[p]);
      values.push(0.5 * (q - p));
      p = q;
    }
    rowStart[i + 1] = cols.length;
  }
  return { n, rowStart, cols: Int32Array.from(cols), values: Float64Array.from(values) };
}
