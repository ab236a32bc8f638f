import type { MetricKey } from "@/lib/metrics";
import { db } from "../db";

/**
 * The estimate history: every finished round with each clustering's estimates (interval and
 * P(best)), oldest first, estimates ordered by clustering name and metric. The one query the
 * live snapshot, the rounds panel, the stop rule, the project list and the exports share.
 */
export interface EstimatePoint {
  readonly clustering: string;
  readonly metric: string;
  readonly value: number;
  readonly lo: number | null;
  readonly hi: number | null;
  readonly pBest: number | null;
}

export interface RoundEstimates {
  readonly index: number;
  readonly nLabels: number;
  /** the estimator behind the numbers, as the round recorded it */
  readonly estimator: string | null;
  readonly backend: string | null;
  readonly finishedAt: Date | null;
  readonly estimates: readonly EstimatePoint[];
}

interface HistoryOptions {
  /** only this metric's estimates */
  readonly metric?: MetricKey;
  /** only the latest finished round */
  readonly latest?: boolean;
}

export async function estimateHistory(projectId: string, options: HistoryOptions = {}): Promise<RoundEstimates[]> {
  const rounds = await db().round.findMany({
    where: { projectId, status: "done" },
    orderBy: { index: options.latest ? "desc" : "asc" },
    take: options.latest ? 1 : undefined,
    select: {
      index: true,
      nLabels: true,
      backend: true,
      finishedAt: true,
      config: true,
      estimates: {
        where: options.metric ? { metric: options.metric } : undefined,
        orderBy: [{ clustering: { name: "asc" } }, { metric: "asc" }],
        select: { metric: true, value: true, lo: true, hi: true, pBest: true, clustering: { select: { name: true } } },
      },
    },
  });
  return rounds.map(({ estimates, config, ...round }) => ({
    ...round,
    estimator: (config as { estimator?: string } | null)?.estimator ?? null,
    estimates: estimates.map(({ clustering, ...e }) => ({ clustering: clustering.name, ...e })),
  }));
}

/** The latest finished round's estimates, or null before the first round. */
export async function latestEstimates(projectId: string, options: Omit<HistoryOptions, "latest"> = {}): Promise<RoundEstimates | null> {
  return (await estimateHistory(projectId, { ...options, latest: true }))[0] ?? null;
}

/** Estimates as the API shows them: clustering -> metric -> value with its interval and P(best) (GET progress, round.completed). */
export function estimatesByClustering(points: readonly EstimatePoint[]): Record<string, Record<string, { value: number; lo: number | null; hi: number | null; pBest: number | null }>> {
  const map: Record<string, Record<string, { value: number; lo: number | null; hi: number | null; pBest: number | null }>> = {};
  for (const e of points) (map[e.clustering] ??= {})[e.metric] = { value: e.value, lo: e.lo, hi: e.hi, pBest: e.pBest };
  return map;
}
