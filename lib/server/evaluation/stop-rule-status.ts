import { stopDecision, type HistoryPoint, type StopDecision } from "@/lib/cereal/method/stop-rule";
import { db } from "../db";
import { estimateHistory } from "../project-data/estimate-history";
import { requireProjectRole } from "../auth/project-access";
import type { SessionUser } from "../auth/session";

/**
 * The stop rule (lib/cereal/method/stop-rule.ts) applied to each clustering's estimate history, per metric:
 * converged or not, and the labels still needed by the width law. A clusterwise project's labels come from its n
 * items, so the projection asks for at most the ones left (labeling them all makes the metric exact); a pairwise
 * project's answers come from the n(n-1)/2 pairs, a pool without end. Rounds without an interval are left out, since
 * the rule reads widths.
 */
export async function stopRuleStatus(user: SessionUser, projectId: string) {
  await requireProjectRole(user, projectId, "OWNER");
  return projectStopStatus(projectId);
}

/** The same without a user: the worker reads it after a round (webhooks' stop_rule.met). */
export async function projectStopStatus(projectId: string) {
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { n: true, mode: true } });
  const poolSize = project.mode === "pairwise" ? undefined : project.n;
  const rounds = await estimateHistory(projectId);
  const histories = new Map<string, Map<string, HistoryPoint[]>>();
  for (const round of rounds) {
    for (const e of round.estimates) {
      if (e.lo === null || e.hi === null) continue;
      let byMetric = histories.get(e.clustering);
      if (!byMetric) histories.set(e.clustering, (byMetric = new Map()));
      const list = byMetric.get(e.metric) ?? [];
      list.push({ nLabels: round.nLabels, estimate: e.value, interval: [e.lo, e.hi] });
      byMetric.set(e.metric, list);
    }
  }
  const status: Record<string, Record<string, StopDecision & { rounds: number }>> = {};
  for (const [clustering, byMetric] of histories) {
    status[clustering] = {};
    for (const [metric, history] of byMetric) status[clustering][metric] = { ...stopDecision(history, { poolSize }), rounds: history.length };
  }
  return { status };
}
