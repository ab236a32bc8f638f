/**
 * The fits' consensus and the pairwise estimate moved toward it (issue #25). Each fit of a pairwise
 * round names its cluster ids freely, so fits are compared after renaming each one's ids to the
 * first's: the assignment that maximises their co-occurrence sum_i p0(a|x_i) pm(b|x_i). The
 * consensus is the argmax of the renamed p(.|x) averaged; its estimate drops the fits' own noise,
 * which lowers NMI where the fits are under-trained (digits: the mean of five fits reads NMI 0.10
 * low at 200 answers), and keeps what the fits agree on, which on the demo is the embedding's
 * structure the clustering shares too (its NMI 0.02-0.03 high). Which way the truth lies is what
 * the answered pairs' prediction-powered FMI reads (pair-count-ppi.ts): the round's estimate is the
 * mean of the fits' estimates moved toward the consensus's by the share that brings its FMI to the
 * pair counts' (power-tuned) FMI, within [0, 1]. MEASUREMENTS.md "The fits' consensus, read by the
 * pair counts": 100 fresh seeds, NMI AEC per 1,000 random-pair answers, digits 0.0293 -> 0.0241,
 * the demo 0.0141 -> 0.0146.
 */
import { linearSumAssignment, METRIC_KEYS, type MetricValues } from "@/lib/metrics";
import { pairCounts, pairPpiEstimate, type PairStage } from "./pair-count-ppi";

/** Adds `proba`'s rows to `sum` ([n x k] both) with its cluster ids renamed to `reference`'s. */
export function addAligned(sum: Float32Array, reference: Float32Array, proba: Float32Array, k: number): void {
  const n = reference.length / k;
  const together = new Float64Array(k * k);
  for (let i = 0; i < n; i++)
    for (let a = 0; a < k; a++) {
      const r = reference[i * k + a];
      if (r === 0) continue;
      for (let b = 0; b < k; b++) together[a * k + b] += r * proba[i * k + b];
    }
  const { rowToCol } = linearSumAssignment(together, k, k, true);
  for (let i = 0; i < n; i++) for (let a = 0; a < k; a++) sum[i * k + a] += proba[i * k + rowToCol[a]];
}

/**
 * `mean` moved toward `consensus` by the share w = (fmi - mean.fmi) / (consensus.fmi - mean.fmi) within [0, 1]
 * that brings its FMI to `fmi`; every metric moves by the same share; w = 0 where the two estimates' FMI agree.
 */
export function movedToward(mean: MetricValues, consensus: MetricValues, fmi: number): MetricValues {
  const span = consensus.fmi - mean.fmi;
  if (Math.abs(span) <= 1e-9) return mean;
  const w = Math.min(1, Math.max(0, (fmi - mean.fmi) / span));
  const out = {} as MetricValues;
  for (const m of METRIC_KEYS) out[m] = mean[m] + w * (consensus[m] - mean[m]);
  return out;
}

/** The round's estimate: the fits' mean moved toward their consensus as far as the answered stages' power-tuned prediction-powered FMI (pairPpiEstimate, weight "tuned", around the mean) says. */
export function towardConsensus(mean: MetricValues, consensus: MetricValues, clusterIds: Int32Array, stages: readonly PairStage[]): MetricValues {
  return movedToward(mean, consensus, pairPpiEstimate(pairCounts(clusterIds, stages), mean, null, 0.9, "tuned").estimate.fmi);
}
