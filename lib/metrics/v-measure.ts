/**
 * Homogeneity h = MI / H(truth), completeness c = MI / H(clusters) and
 * V-measure V_beta = (1 + beta) h c / (beta h + c) (Rosenberg & Hirschberg 2007, eqs. 1-3),
 * as sklearn.metrics.homogeneity_completeness_v_measure: h = 1 when H(truth) = 0, c = 1 when
 * H(clusters) = 0, V = 0 when h + c = 0, and all three 1.0 on empty input.
 */
import { contingency } from "./contingency";
import { entropyOfCounts } from "./entropy";
import type { Labels } from "./labels";
import { mutualInfoFromTable } from "./mutual-info";
import { asTable, type TableLike } from "./table";

export interface HomogeneityCompleteness {
  readonly homogeneity: number;
  readonly completeness: number;
  readonly vMeasure: number;
}

export function homogeneityCompletenessFromTable(table: TableLike, beta = 1.0): HomogeneityCompleteness {
  const t = asTable(table);
  if (t.total === 0) return { homogeneity: 1.0, completeness: 1.0, vMeasure: 1.0 };
  const hTrue = entropyOfCounts(t.rowSums);
  const hPred = entropyOfCounts(t.colSums);
  const mi = mutualInfoFromTable(t);
  const homogeneity = hTrue ? mi / hTrue : 1.0;
  const completeness = hPred ? mi / hPred : 1.0;
  const vMeasure =
    homogeneity + completeness === 0.0
      ? 0.0
      : ((1 + beta) * homogeneity * completeness) / (beta * homogeneity + completeness);
  return { homogeneity, completeness, vMeasure };
}

export function homogeneityFromTable(table: TableLike): number {
  return homogeneityCompletenessFromTable(table).homogeneity;
}

export function completenessFromTable(table: TableLike): number {
  return homogeneityCompletenessFromTable(table).completeness;
}

export function vMeasureFromTable(table: TableLike, beta = 1.0): number {
  return homogeneityCompletenessFromTable(table, beta).vMeasure;
}

export function homogeneity(labelsTrue: Labels, labelsPred: Labels): number {
  return homogeneityFromTable(contingency(labelsTrue, labelsPred));
}

export function completeness(labelsTrue: Labels, labelsPred: Labels): number {
  return completenessFromTable(contingency(labelsTrue, labelsPred));
}

export function vMeasure(labelsTrue: Labels, labelsPred: Labels, beta = 1.0): number {
  return vMeasureFromTable(contingency(labelsTrue, labelsPred), beta);
}
