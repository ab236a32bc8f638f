/**
 * Label arrays and their dense encoding. Metrics never depend on label values, only on which
 * items share a label, so every label array is first mapped to ids 0..k-1 (in increasing label
 * order, as numpy.unique does, so table rows and columns line up with scikit-learn's).
 */

/** A hard labelling: one integer per item (number[] or Int32Array; values may be negative or sparse). */
export type Labels = ArrayLike<number>;

export interface DenseLabels {
  /** ids[i] in 0..k-1 */
  readonly ids: Int32Array;
  /** number of distinct labels */
  readonly k: number;
  /** values[id] = the original label of that id, increasing */
  readonly values: Float64Array;
}

/** Above this value range an offset array would waste memory; fall back to hashing. */
const MAX_OFFSET_RANGE = 1 << 24;

/** Maps labels to dense ids: O(N) by an offset array when their range is small, else by hashing. */
export function denseLabels(labels: Labels): DenseLabels {
  const n = labels.length;
  const ids = new Int32Array(n);
  if (n === 0) return { ids, k: 0, values: new Float64Array(0) };
  let min = Infinity;
  let max = -Infinity;
  // integer typed arrays need no per-item integer check
  const check = !(labels instanceof Int32Array || labels instanceof Uint8Array || labels instanceof Uint16Array);
  let integral = true;
  for (let i = 0; i < n; i++) {
    const v = labels[i];
    if (v !== v) throw new RangeError(`label ${i} is NaN`);
    if (v < min) min = v;
    if (v > max) max = v;
    if (check && integral && !Number.isInteger(v)) integral = false;
  }
  const range = max - min + 1;
  if (integral && range <= Math.max(MAX_OFFSET_RANGE, 4 * n)) {
    const slot = new Int32Array(range).fill(-1);
    for (let i = 0; i < n; i++) slot[labels[i] - min] = 0;
    let k = 0;
    for (let v = 0; v < range; v++) if (slot[v] === 0) slot[v] = k++;
    const values = new Float64Array(k);
    for (let v = 0; v < range; v++) if (slot[v] >= 0) values[slot[v]] = v + min;
    for (let i = 0; i < n; i++) ids[i] = slot[labels[i] - min];
    return { ids, k, values };
  }
  // wide or non-integer values: hash to first-seen ids in O(N), then sort only the k distinct values
  const firstSeen = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    let id = firstSeen.get(labels[i]);
    if (id === undefined) firstSeen.set(labels[i], (id = firstSeen.size));
    ids[i] = id;
  }
  const values = Float64Array.from(firstSeen.keys()).sort();
  const rank = new Int32Array(values.length);
  values.forEach((v, r) => (rank[firstSeen.get(v)!] = r));
  for (let i = 0; i < n; i++) ids[i] = rank[ids[i]];
  return { ids, k: values.length, values };
}

/** Labels that already are ids 0..k-1 (class and cluster indices of a fixed k), kept as they are: ids with no item stay as empty rows or columns. */
export function idsInRange(labels: Labels, k: number, what = "label"): DenseLabels {
  const ids = Int32Array.from(labels);
  for (let i = 0; i < ids.length; i++)
    if (ids[i] !== labels[i] || ids[i] < 0 || ids[i] >= k) throw new RangeError(`${what} ${i} is ${labels[i]}, outside 0..${k - 1}`);
  return { ids, k, values: Float64Array.from({ length: k }, (_, i) => i) };
}
