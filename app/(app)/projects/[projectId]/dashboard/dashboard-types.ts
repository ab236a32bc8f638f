import type { projectTrueMetrics } from "@/lib/server/evaluation/true-metrics";
import type { stopRuleStatus } from "@/lib/server/evaluation/stop-rule-status";
import type { listRounds } from "@/lib/server/rounds/round-history";

/**
 * The shapes the dashboard reads from the project's API, taken from the services that answer
 * (lib/server) as they arrive over JSON.
 */

/** A value as JSON brings it: dates become ISO strings. */
type OverJson<T> = T extends Date ? string : T extends (infer U)[] ? OverJson<U>[] : T extends object ? { [K in keyof T]: OverJson<T[K]> } : T;

export type RoundRow = OverJson<Awaited<ReturnType<typeof listRounds>>["rounds"][number]>;
export type EstimateRow = NonNullable<RoundRow["estimates"]>[number];
export type StopRule = Awaited<ReturnType<typeof stopRuleStatus>>["status"];
export type TrueMetrics = Awaited<ReturnType<typeof projectTrueMetrics>>["metrics"];

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
