import { db } from "../db";
import { enqueueJob } from "../jobs/queue";
import { estimatesByClustering, latestEstimates } from "../project-data/estimate-history";
import { projectStopStatus } from "../evaluation/stop-rule-status";
import { logger } from "../ops/logger";
import { webhookJob } from "./delivery-job";

/**
 * The events webhooks carry. Each event becomes one delivery per webhook that wants it (the
 * project's, or the user's for imports) and one job; the body is Standard Webhooks' shape
 * `{ type, timestamp, data }`. A failure here is logged and never fails the round or import
 * that caused it.
 */
export type WebhookEvent = "round.completed" | "round.failed" | "stop_rule.met" | "import.completed" | "import.failed";

async function emit(owner: { projectId: string } | { userId: string }, type: WebhookEvent, data: Record<string, unknown>) {
  const webhook = await db().webhook.findUnique({ where: owner as { projectId: string }, select: { id: true } });
  if (!webhook) return;
  const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data });
  const delivery = await db().webhookDelivery.create({ data: { webhookId: webhook.id, event: type, body } });
  await enqueueJob(webhookJob, { deliveryId: delivery.id, projectId: "projectId" in owner ? owner.projectId : null });
}

async function safely(what: string, fn: () => Promise<void>) {
  try {
    await fn();
  } catch (error) {
    logger().error({ err: error }, `webhook event ${what} was not queued`);
  }
}

/** round.completed with the estimates as GET …/progress shows them, then stop_rule.met for each new convergence. */
export const notifyRoundCompleted = (projectId: string, round: number) =>
  safely("round.completed", async () => {
    const last = await latestEstimates(projectId);
    if (!last || last.index !== round) return;
    await emit({ projectId }, "round.completed", {
      projectId,
      round,
      nLabels: last.nLabels,
      finishedAt: last.finishedAt?.toISOString() ?? null,
      estimates: estimatesByClustering(last.estimates),
    });
    await notifyConvergence(projectId, round);
  });

export const notifyRoundFailed = (projectId: string, round: number, error: string) => safely("round.failed", () => emit({ projectId }, "round.failed", { projectId, round, error }));

/** stop_rule.met once per transition to converged, per clustering and metric (StopRuleState remembers the last decision). */
async function notifyConvergence(projectId: string, round: number) {
  const { status } = await projectStopStatus(projectId);
  const before = new Map((await db().stopRuleState.findMany({ where: { projectId } })).map((s) => [`${s.clustering}\u0000${s.metric}`, s.converged]));
  for (const [clustering, byMetric] of Object.entries(status)) {
    for (const [metric, decision] of Object.entries(byMetric)) {
      const was = before.get(`${clustering}\u0000${metric}`) ?? false;
      if (decision.converged && !was) await emit({ projectId }, "stop_rule.met", { projectId, round, clustering, metric, width: decision.width, moved: decision.moved });
      if (decision.converged !== was || !before.has(`${clustering}\u0000${metric}`)) {
        await db().stopRuleState.upsert({
          where: { projectId_clustering_metric: { projectId, clustering, metric } },
          create: { projectId, clustering, metric, converged: decision.converged },
          update: { converged: decision.converged },
        });
      }
    }
  }
}

export const notifyImportCompleted = (userId: string, data: { projectId: string; name: string; bundleName: string; n: number }) =>
  safely("import.completed", () => emit({ userId }, "import.completed", data));

export const notifyImportFailed = (userId: string, data: { name: string | null; error: string }) => safely("import.failed", () => emit({ userId }, "import.failed", data));
