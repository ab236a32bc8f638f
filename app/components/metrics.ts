import { METRIC_NAMES, type MetricKey } from "@/lib/metrics";

export type { MetricKey };

/** The metrics in the order the tabs show them, each with its name as lib/metrics writes it. */
export const METRICS: readonly { key: MetricKey; label: string }[] = (["nmi", "ami", "ari", "acc", "ap", "vMeasure", "fmi"] as const).map((key) => ({ key, label: METRIC_NAMES[key] }));

export const formatMetric = (v: number | null | undefined, digits = 3) => (v === null || v === undefined || Number.isNaN(v) ? "—" : v.toFixed(digits));
