/**
 * Every metric of the product's metric contract (keys nmi, ami, ari, acc, vMeasure, fmi, ap)
 * from one table, so a table built once (hard, expected or weighted) serves them all.
 */
import { clusteringAccuracyFromTable } from "./accuracy";
import { amiFromTable } from "./ami";
import { apMetric } from "./ap";
import { ariFromTable } from "./ari";
import { fowlkesMallowsFromTable } from "./fowlkes-mallows";
import { nmiFromTable } from "./nmi";
import { asTable, type TableLike } from "./table";
import { vMeasureFromTable } from "./v-measure";

export const METRIC_KEYS = ["nmi", "ami", "ari", "acc", "vMeasure", "fmi", "ap"] as const;
export type MetricKey = (typeof METRIC_KEYS)[number];
export type MetricValues = Record<MetricKey, number>;

export function metricsFromTable(table: TableLike): MetricValues {
  const t = asTable(table);
  return {
    nmi: nmiFromTable(t),
    ami: amiFromTable(t),
    ari: ariFromTable(t),
    acc: clusteringAccuracyFromTable(t),
    vMeasure: vMeasureFromTable(t),
    fmi: fowlkesMallowsFromTable(t),
    ap: apMetric(t).ap,
  };
}
