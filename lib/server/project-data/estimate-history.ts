import type { MetricKey } from "@/lib/metrics";
import { db } from "../db";

/**
 * The estimate history: every finished round with each clustering's estimates (interval and
 * P(best)), oldest first, estimates ordered by clustering name and metric. The one query the
 * live snapshot, the rounds panel, the stop rule, the project list and the exports share.
 * `withInterim` adds the running round's interim estimates (issue #24: from the previous round's
 * model, before its fit), marked `interim`; the stop rule, webhooks and the ranking read finished
 * rounds only, so nothing decides on an interim estimate.
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
  /** true: the running round's interim estimates, from the previous round's model (the round is not done) */
  readonly interim: boolean;
  readonly estimates: readonly EstimatePoint[];
}

interface HistoryOptions {
  /** only this metric's estimates */
  readonly metric?: MetricKey;
  /** only the latest finished round (the interim one when it is newer) */
  readonly latest?: boolean;
  /** with the running round's interim estimates after the finished rounds */
  readonly withInterim?: boolean;
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
  const history: RoundEstimates[] = rounds.map(({ estimates, config, ...round }) => ({
    ...round,
    estimator: estimatorOf(config),
    interim: false,
    estimates: estimates.map(({ clustering, ...e }) => ({ clustering: clustering.name, ...e })),
  }));
  const interim = options.withInterim ? await interimEstimates(projectId, options.metric) : null;
  const lastIndex = options.latest ? (history[0]?.index ?? -1) : (history.at(-1)?.index ?? -1);
  if (!interim || interim.index <= lastIndex) return history;
  return options.latest ? [interim] : [...history, interim];
}

const estimatorOf = (config: unknown) => (config as { estimator?: string } | null)?.estimator ?? null;

/** The running round's interim estimates, ordered as the finished rounds' are; null when it has none. */
export async function interimEstimates(projectId: string, metric?: MetricKey): Promise<RoundEstimates | null> {
  const round = await db().round.findFirst({ where: { projectId, status: "running" }, orderBy: { index: "desc" }, select: { index: true, nLabels: true, config: true, interimEstimates: true } });
  if (!round?.interimEstimates) return null;
  const points = (round.interimEstimates as unknown as EstimatePoint[])
    .filter((e) => metric === undefined || e.metric === metric)
    .sort((a, b) => (a.clustering === b.clustering ? (a.metric < b.metric ? -1 : 1) : a.clustering < b.clustering ? -1 : 1));
  return { index: round.index, nLabels: round.nLabels, estimator: estimatorOf(round.config), backend: null, finishedAt: null, interim: true, estimates: points };
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
