/**
 * The Associativity-Peakiness (AP) metric ("Associativity-Peakiness Metric for Contingency
 * Tables"; rows are truth classes, columns clusters):
 *   L_i = argmax_j n_ij for each row i;
 *   associativity A = share of row pairs (i < i') with L_i != L_i';
 *   peakiness P = mean over rows of (max1_i - max2_i) / max1_i (max2: the second largest cell);
 *   AP = 2 A P / (A + P), 0 when A + P = 0.
 *
 * Conventions (the paper leaves them open):
 * - Rows with no mass (max1 = 0) are left out of both A and P.
 * - Tie rule: a row whose maximum is attained in several columns picks one of them uniformly at
 *   random, and A is the expectation: P(L_i = L_i') = |S_i ∩ S_i'| / (|S_i| |S_i'|) for the tied
 *   sets S. This, unlike "first column wins", is invariant to permuting the columns. A tied row
 *   has max2 = max1, so its peakiness is 0.
 * - A row in a one-column table has max2 = 0 (peakiness 1).
 * - Fewer than two rows with mass: no pair can collide, A = 1; an empty table: A = P = AP = 1
 *   (vacuous agreement, as sklearn's 1.0 for empty labellings).
 */
import { asTable, type TableLike } from "./table";

export interface ApResult {
  readonly associativity: number;
  readonly peakiness: number;
  readonly ap: number;
}

export function apMetric(table: TableLike): ApResult {
  const t = asTable(table);
  const R = t.rows;
  const max1 = new Float64Array(R);
  const max2 = new Float64Array(R);
  const ties = new Int32Array(R);
  for (let c = 0; c < t.cellValue.length; c++) {
    const r = t.cellRow[c];
    const v = t.cellValue[c];
    if (v > max1[r]) {
      max2[r] = max1[r];
      max1[r] = v;
      ties[r] = 1;
    } else if (v === max1[r]) {
      max2[r] = v;
      ties[r]++;
    } else if (v > max2[r]) {
      max2[r] = v;
    }
  }
  // each row spreads weight 1/|S_i| over its argmax columns S_i
  const colWeight = new Float64Array(t.cols);
  const colWeightSq = new Float64Array(t.cols);
  for (let c = 0; c < t.cellValue.length; c++) {
    const r = t.cellRow[c];
    if (t.cellValue[c] === max1[r]) {
      const w = 1 / ties[r];
      colWeight[t.cellCol[c]] += w;
      colWeightSq[t.cellCol[c]] += w * w;
    }
  }
  let present = 0;
  let peak = 0;
  for (let r = 0; r < R; r++) {
    if (max1[r] > 0) {
      present++;
      peak += (max1[r] - max2[r]) / max1[r];
    }
  }
  if (present === 0) return { associativity: 1, peakiness: 1, ap: 1 };
  let associativity = 1;
  if (present >= 2) {
    // expected equal pairs: sum_j ((sum_i w_ij)^2 - sum_i w_ij^2) / 2
    let equalPairs = 0;
    for (let j = 0; j < t.cols; j++) equalPairs += (colWeight[j] * colWeight[j] - colWeightSq[j]) / 2;
    associativity = 1 - equalPairs / ((present * (present - 1)) / 2);
  }
  const peakiness = peak / present;
  const sum = associativity + peakiness;
  return { associativity, peakiness, ap: sum === 0 ? 0 : (2 * associativity * peakiness) / sum };
}
