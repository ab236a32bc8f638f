/** The shapes the dashboard reads from the project's API (see lib/server for their sources). */
export const METRICS = [
  { key: "nmi", label: "NMI" },
  { key: "ami", label: "AMI" },
  { key: "ari", label: "ARI" },
  { key: "acc", label: "ACC" },
  { key: "ap", label: "AP" },
  { key: "vMeasure", label: "V-measure" },
  { key: "fmi", label: "FMI" },
] as const;
export type MetricKey = (typeof METRICS)[number]["key"];

export interface DashboardProject {
  id: string;
  name: string;
  mode: string;
  n: number;
  budget: number;
  paused: boolean;
  hasReferenceLabels: boolean;
  classes: { index: number; name: string }[];
  clusterings: { name: string; k: number }[];
  itemKind: string;
}

export interface EstimateRow {
  clustering: string;
  metric: string;
  value: number;
  lo: number | null;
  hi: number | null;
  pBest: number | null;
}

export interface RoundRow {
  index: number;
  status: string;
  nLabels: number;
  backend: string | null;
  maskRate: number | null;
  // optional: simulation runs (simulation-runs.tsx) reuse this row without them
  estimator?: string | null;
  /** the previous rounds' models on the batches labeled since (out of sample); weak: below 60% */
  surrogateAccuracy?: number | null;
  surrogateEce?: number | null;
  surrogateWeak?: boolean | null;
  trainSeconds: number | null;
  roundSeconds: number | null;
  writeSeconds: number | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  job: { status: string; progress: RoundProgress | null; attempts: number } | null;
  estimates: EstimateRow[] | null;
}

export interface RoundProgress {
  phase?: string;
  step?: number;
  total?: number;
}

export interface Snapshot {
  labels: number;
  budget: number;
  paused: boolean;
  batch: { index: number; size: number; done: number } | null;
  round: { index: number; status: "queued" | "running" | "failed"; progress: RoundProgress | null; error: string | null } | null;
  lastRound: { index: number; nLabels: number; finishedAt: string | null } | null;
  estimates: Record<string, Record<string, { value: number; lo: number | null; hi: number | null; pBest: number | null }>> | null;
}

export interface StopStatus {
  converged: boolean;
  width: number;
  moved: number | null;
  labelsStillNeeded: number | null;
  rounds: number;
}

export type StopRule = Record<string, Record<string, StopStatus>>;
export type TrueMetrics = Record<string, Record<string, number>>;

export const formatMetric = (v: number | null | undefined, digits = 3) => (v === null || v === undefined || Number.isNaN(v) ? "—" : v.toFixed(digits));
