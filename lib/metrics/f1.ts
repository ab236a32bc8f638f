/**
 * The F1 of the AP paper: the harmonic mean of
 *   truth-class accuracy = mean over rows of (row max / row sum) and
 *   cluster purity       = mean over columns of (column max / column sum),
 * F1 = 2 TCA CP / (TCA + CP), 0 when both are 0. Rows and columns with no mass are left out;
 * an empty table gives 1 for all three (vacuous agreement, as apMetric).
 */
import { asTable, type TableLike } from "./table";

export interface F1Result {
  readonly truthClassAccuracy: number;
  readonly clusterPurity: number;
  readonly f1: number;
}

export function f1Contingency(table: TableLike): F1Result {
  const t = asTable(table);
  const rowMax = new Float64Array(t.rows);
  const colMax = new Float64Array(t.cols);
  for (let c = 0; c < t.cellValue.length; c++) {
    const v = t.cellValue[c];
    if (v > rowMax[t.cellRow[c]]) rowMax[t.cellRow[c]] = v;
    if (v > colMax[t.cellCol[c]]) colMax[t.cellCol[c]] = v;
  }
  const meanShare = (max: Float64Array, sums: Float64Array) => {
    let sum = 0;
    let count = 0;
    for (let k = 0; k < sums.length; k++) {
      if (sums[k] > 0) {
        sum += max[k] / sums[k];
        count++;
      }
    }
    return count === 0 ? 1 : sum / count;
  };
  const truthClassAccuracy = meanShare(rowMax, t.rowSums);
  const clusterPurity = meanShare(colMax, t.colSums);
  const s = truthClassAccuracy + clusterPurity;
  return { truthClassAccuracy, clusterPurity, f1: s === 0 ? 0 : (2 * truthClassAccuracy * clusterPurity) / s };
}
