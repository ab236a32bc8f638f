import { z } from "zod";
import { spearman } from "@/lib/ace/spearman";
import { METRIC_KEYS, type MetricKey } from "@/lib/metrics";
import { requireProjectRole } from "../auth/project-access";
import type { SessionUser } from "../auth/session";
import { db } from "../db";
import { estimateHistory } from "../project-data/estimate-history";
import { currentLabelFree, labelFreeQuery, type LabelFreeResponse } from "./label-free";

/**
 * The clustering ranking the dashboard draws, computed once here: each clustering's latest
 * estimate of one metric with its interval, P(best) and change since the round before, best
 * first; the clusterings the latest round does not cover yet (none before the first round, a new
 * candidate until the next) after them by their ACE score, so before any label the label-free
 * ranking is the ranking; and Spearman's rho between the two rankings. Owner only.
 */
export const rankingQuery = z.object({
  metric: z.enum(METRIC_KEYS, { message: `metric must be one of ${METRIC_KEYS.join(", ")}.` }).default("nmi"),
  measure: labelFreeQuery.shape.measure,
});

export interface RankingRow {
  readonly name: string;
  readonly k: number;
  /** null until a round estimates this clustering */
  readonly estimate: { value: number; lo: number | null; hi: number | null; pBest: number | null; change: number | null } | null;
  /** paired and ACE scores of the chosen measure and the clustering's space, when computed */
  readonly labelFree: { paired: number | null; ace: number | null; space: string | null } | null;
}

export interface ClusteringRanking {
  readonly metric: MetricKey;
  /** the round the estimates come from */
  readonly round: { index: number; nLabels: number; estimator: string | null } | null;
  readonly rows: RankingRow[];
  /** the label-free scores' state: ready, computing, unavailable (fewer than 3 clusterings), or null when never asked for */
  readonly labelFree: LabelFreeResponse["state"] | null;
  /** Spearman's rho between the estimates' and ACE's rankings over the clusterings with both; null under 3 or when either is constant */
  readonly agreement: { rho: number; n: number } | null;
}

export async function clusteringRanking(user: SessionUser, projectId: string, query: { metric?: string | null; measure?: string | null }): Promise<ClusteringRanking> {
  await requireProjectRole(user, projectId, "OWNER");
  const { metric, measure } = rankingQuery.parse({ metric: query.metric ?? undefined, measure: query.measure ?? undefined });
  const clusterings = await db().clustering.findMany({ where: { projectId }, orderBy: { name: "asc" }, select: { name: true, k: true } });
  const done = (await estimateHistory(projectId, { metric })).filter((r) => r.estimates.length > 0);
  const [last, previous] = [done.at(-1) ?? null, done.at(-2) ?? null];
  const labelFree = await currentLabelFree(projectId, measure);
  const scores = new Map(labelFree?.state === "ready" ? labelFree.clusterings.map((c) => [c.name, { paired: c.paired, ace: c.ace, space: c.space }]) : []);

  const rows: RankingRow[] = clusterings.map((c) => {
    const e = last?.estimates.find((x) => x.clustering === c.name);
    const before = previous?.estimates.find((x) => x.clustering === c.name);
    return {
      name: c.name,
      k: c.k,
      estimate: e ? { value: e.value, lo: e.lo, hi: e.hi, pBest: e.pBest, change: before ? e.value - before.value : null } : null,
      labelFree: scores.get(c.name) ?? null,
    };
  });
  const ace = (row: RankingRow) => row.labelFree?.ace ?? -Infinity;
  rows.sort((a, b) => {
    if (a.estimate && b.estimate) return b.estimate.value - a.estimate.value;
    if (a.estimate || b.estimate) return a.estimate ? -1 : 1;
    return ace(b) - ace(a) || a.name.localeCompare(b.name);
  });
  return {
    metric,
    round: last ? { index: last.index, nLabels: last.nLabels, estimator: last.estimator } : null,
    rows,
    labelFree: labelFree?.state ?? null,
    agreement: rankAgreement(rows),
  };
}

/** Spearman's rho over the clusterings with both an estimate and a finite ACE score (ties share their average rank). */
function rankAgreement(rows: readonly RankingRow[]): { rho: number; n: number } | null {
  const both = rows.filter((r) => r.estimate && Number.isFinite(r.estimate.value) && r.labelFree?.ace !== null && Number.isFinite(r.labelFree?.ace));
  if (both.length < 3) return null;
  const rho = spearman(
    both.map((r) => r.estimate!.value),
    both.map((r) => r.labelFree!.ace!),
  );
  return Number.isNaN(rho) ? null : { rho, n: both.length };
}
