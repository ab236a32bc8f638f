import type { MetricKey } from "./metrics-from-table";

/** How a metric key is written in a figure, a table or a sentence of the paper. */
export const METRIC_NAMES: Readonly<Record<MetricKey, string>> = {
  nmi: "NMI",
  ami: "AMI",
  ari: "ARI",
  acc: "ACC",
  vMeasure: "V-measure",
  fmi: "FMI",
  ap: "AP",
};
