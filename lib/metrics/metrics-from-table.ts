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

/** where each metric can lie (AMI's lower end is loose: chance-adjusted, it rarely goes below 0) */
export const METRIC_RANGE: Readonly<Record<MetricKey, readonly [number, number]>> = {
  nmi: [0, 1],
  ami: [-1, 1],
  ari: [-0.5, 1],
  acc: [0, 1],
  vMeasure: [0, 1],
  fmi: [0, 1],
  ap: [0, 1],
};

/** a value moved into the metric's range (estimates and intervals after a correction) */
export function clampMetric(key: MetricKey, value: number): number {
  return Math.min(METRIC_RANGE[key][1], Math.max(METRIC_RANGE[key][0], value));
}

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
