/**
 * expectedContingency(rows, cols, weights?): the table sum_i w_i * r_i (outer) c_i, where r_i and
 * c_i are item i's class and cluster distributions (one-hot for hard labels). With soft inputs it
 * is the expected contingency table under independent per-item draws; with weights (e.g. inverse
 * inclusion probabilities) it is a weighted estimate of the population table. It serves Soft NMI,
 * soft pseudo-labels and the weighted estimators alike. Its pairDiagonal makes ARI/FMI use the
 * expected pair counts instead of the biased plug-in (pair-counts.ts).
 */
import { denseLabels, type Labels } from "./labels";
import { tableFromSortedCells, type ContingencyTable } from "./table";

/** An N x K row-major probability matrix with its K stated. */
export interface SoftLabels {
  readonly probs: Float32Array | Float64Array;
  readonly k: number;
}

/** Hard ids 0..k-1 with k stated: ids with no item stay as empty rows or columns (no N x k one-hot matrix needed). */
export interface HardIds {
  readonly ids: Int32Array;
  readonly k: number;
}

/**
 * One side of a table: hard labels (number[] or Int32Array, densified), HardIds, a row-major
 * N x K Float32Array of probabilities (K inferred from N, which must then come from the other side
 * or the weights), or SoftLabels.
 */
export type Assignments = Labels | Float32Array | SoftLabels | HardIds;

const DENSE_LIMIT = 1 << 22;

interface Side {
  readonly k: number;
  /** hard: ids per item */
  readonly ids?: Int32Array;
  /** soft: row-major N x k */
  readonly probs?: Float32Array | Float64Array;
}

function isSoft(a: Assignments): a is SoftLabels {
  return typeof (a as SoftLabels).k === "number" && (a as SoftLabels).probs !== undefined;
}

function isHardIds(a: Assignments): a is HardIds {
  return typeof (a as HardIds).k === "number" && (a as HardIds).ids instanceof Int32Array;
}

function knownLength(a: Assignments): number | undefined {
  if (isHardIds(a)) return a.ids.length;
  if (isSoft(a)) return a.k > 0 ? a.probs.length / a.k : 0;
  if (a instanceof Float32Array) return undefined;
  return a.length;
}

function side(a: Assignments, n: number, name: string): Side {
  let probs: Float32Array | Float64Array;
  let k: number;
  if (isHardIds(a)) {
    if (a.ids.length !== n) throw new RangeError(`${name}: ${a.ids.length} ids for ${n} items`);
    for (let i = 0; i < n; i++) if (!(a.ids[i] >= 0 && a.ids[i] < a.k)) throw new RangeError(`${name}: id ${i} is ${a.ids[i]}, outside 0..${a.k - 1}`);
    return { k: a.k, ids: a.ids };
  }
  if (isSoft(a)) {
    probs = a.probs;
    k = a.k;
  } else if (a instanceof Float32Array) {
    probs = a;
    k = n > 0 ? a.length / n : 0;
  } else {
    if (a.length !== n) throw new RangeError(`${name}: ${a.length} labels for ${n} items`);
    const d = denseLabels(a);
    return { k: d.k, ids: d.ids };
  }
  if (!Number.isInteger(k) || probs.length !== n * k) {
    throw new RangeError(`${name}: a probability matrix of length ${probs.length} is not ${n} x K`);
  }
  for (let i = 0; i < probs.length; i++) {
    if (!(probs[i] >= 0)) throw new RangeError(`${name}: probability ${i} is ${probs[i]}`);
  }
  return { k, probs };
}

export function expectedContingency(
  rows: Assignments,
  cols: Assignments,
  weights?: ArrayLike<number>,
): ContingencyTable {
  const n = knownLength(rows) ?? knownLength(cols) ?? weights?.length;
  if (n === undefined) {
    throw new RangeError("both sides are bare Float32Arrays: pass { probs, k } so N is known");
  }
  if (weights && weights.length !== n) throw new RangeError(`${weights.length} weights for ${n} items`);
  const r = side(rows, n, "rows");
  const c = side(cols, n, "cols");
  const R = r.k;
  const C = c.k;
  let dCells = 0;
  let dRows = 0;
  let dCols = 0;
  let dItems = 0;
  const dense = R * C <= DENSE_LIMIT;
  const acc = dense ? new Float64Array(R * C) : undefined;
  const sparse = dense ? undefined : new Map<number, number>();
  const add = (key: number, v: number) => {
    if (acc) acc[key] += v;
    else sparse!.set(key, (sparse!.get(key) ?? 0) + v);
  };
  for (let i = 0; i < n; i++) {
    const w = weights ? weights[i] : 1;
    if (!(w >= 0) || !Number.isFinite(w)) throw new RangeError(`weight ${i} is ${w}`);
    if (w === 0) continue;
    let rSq = 1;
    let cSq = 1;
    if (r.probs) {
      rSq = 0;
      for (let a = 0, o = i * R; a < R; a++) rSq += r.probs[o + a] * r.probs[o + a];
    }
    if (c.probs) {
      cSq = 0;
      for (let b = 0, o = i * C; b < C; b++) cSq += c.probs[o + b] * c.probs[o + b];
    }
    const w2 = w * w;
    dCells += w2 * rSq * cSq;
    dRows += w2 * rSq;
    dCols += w2 * cSq;
    dItems += w2;
    if (r.ids && c.ids) {
      add(r.ids[i] * C + c.ids[i], w);
    } else if (r.ids) {
      const base = r.ids[i] * C;
      for (let b = 0, o = i * C; b < C; b++) if (c.probs![o + b] !== 0) add(base + b, w * c.probs![o + b]);
    } else if (c.ids) {
      const col = c.ids[i];
      for (let a = 0, o = i * R; a < R; a++) if (r.probs![o + a] !== 0) add(a * C + col, w * r.probs![o + a]);
    } else {
      for (let a = 0, o = i * R; a < R; a++) {
        const ra = w * r.probs![o + a];
        if (ra === 0) continue;
        for (let b = 0, q = i * C; b < C; b++) if (c.probs![q + b] !== 0) add(a * C + b, ra * c.probs![q + b]);
      }
    }
  }
  let keys: Float64Array;
  let values: Float64Array;
  if (acc) {
    let nnz = 0;
    for (let key = 0; key < acc.length; key++) if (acc[key] !== 0) nnz++;
    keys = new Float64Array(nnz);
    values = new Float64Array(nnz);
    for (let key = 0, j = 0; key < acc.length; key++) {
      if (acc[key] !== 0) {
        keys[j] = key;
        values[j++] = acc[key];
      }
    }
  } else {
    keys = Float64Array.from(sparse!.keys()).sort();
    values = Float64Array.from(keys, (key) => sparse!.get(key)!);
  }
  const cellRow = Int32Array.from(keys, (key) => Math.floor(key / C));
  const cellCol = Int32Array.from(keys, (key, j) => key - cellRow[j] * C);
  return tableFromSortedCells(R, C, cellRow, cellCol, values, {
    cells: dCells,
    rows: dRows,
    cols: dCols,
    items: dItems,
  });
}
