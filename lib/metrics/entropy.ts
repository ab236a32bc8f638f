/**
 * Shannon entropy in nats, H = -sum_k (n_k / N) log(n_k / N), as sklearn.metrics.cluster.entropy
 * (evaluated as -sum (n_k/N)(log n_k - log N) like sklearn, for the same rounding).
 */
import { denseLabels, type Labels } from "./labels";

/** Entropy of a vector of (possibly real-valued) counts; zero counts contribute nothing. */
export function entropyOfCounts(counts: ArrayLike<number>): number {
  let total = 0;
  let present = 0;
  for (let k = 0; k < counts.length; k++) {
    if (counts[k] > 0) {
      total += counts[k];
      present++;
    }
  }
  // sklearn: an empty labelling has entropy 1.0, a single label 0.0
  if (present === 0) return 1.0;
  if (present === 1) return 0.0;
  const logTotal = Math.log(total);
  let h = 0;
  for (let k = 0; k < counts.length; k++) {
    const c = counts[k];
    if (c > 0) h -= (c / total) * (Math.log(c) - logTotal);
  }
  return h;
}

/** Entropy of a hard labelling (nats). */
export function entropy(labels: Labels): number {
  const { ids, k } = denseLabels(labels);
  const counts = new Float64Array(k);
  for (let i = 0; i < ids.length; i++) counts[ids[i]]++;
  return entropyOfCounts(counts);
}
