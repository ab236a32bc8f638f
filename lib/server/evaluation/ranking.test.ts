import { describe, expect, it } from "vitest";
import * as rankingRoute from "@/app/api/projects/[projectId]/ranking/route";
import { spearman } from "@/lib/ace/spearman";
import { db } from "../db";
import { requestAs, routeContext } from "../http/test-requests";
import { runOneJob } from "../jobs/worker-loop";
import { digitsProject, fastWorkerDeps, labelAll } from "../labeling/labeling-test-fixture";
import { estimateHistory } from "../project-data/estimate-history";
import { labelFreeEvaluation, labelFreeJob } from "./label-free";
import type { ClusteringRanking } from "./ranking";

const get = async (userId: string | null, projectId: string, query = "") => {
  const user = userId ? await db().user.findUniqueOrThrow({ where: { id: userId } }) : null;
  return rankingRoute.GET(await requestAs(user, `/api/projects/${projectId}/ranking${query}`), routeContext({ projectId }));
};
const ranking = async (userId: string, projectId: string, query = ""): Promise<ClusteringRanking> => (await get(userId, projectId, query)).json();

describe("clustering ranking", () => {
  it("ranks by ACE before any round, then by the latest estimate with its change since the round before, and gives rho between the two", async () => {
    const { projectId, owner, annotators, truth } = await digitsProject();
    const before = await ranking(owner.id, projectId);
    expect(before).toMatchObject({ metric: "nmi", round: null, labelFree: null, agreement: null });
    expect(before.rows.map((r) => r.name)).toEqual(["gmm_k10", "gmm_k15", "gmm_k5", "kmeans_k10", "kmeans_k15", "kmeans_k5"]);

    // the label-free scores: the ranking reads them but never queues them
    expect((await labelFreeEvaluation(owner, projectId, {})).state).toBe("computing");
    expect((await ranking(owner.id, projectId)).labelFree).toBe("computing");
    await runOneJob("w", { deps: fastWorkerDeps, jobs: [labelFreeJob] });
    const byAce = await ranking(owner.id, projectId);
    expect(byAce.labelFree).toBe("ready");
    const aces = byAce.rows.map((r) => r.labelFree!.ace!);
    expect(aces).toEqual([...aces].sort((a, b) => b - a));

    await labelAll(annotators[0], projectId, truth, 20);
    await runOneJob("w", { deps: fastWorkerDeps });
    await labelAll(annotators[0], projectId, truth, 10);
    await runOneJob("w", { deps: fastWorkerDeps });
    const after = await ranking(owner.id, projectId, "?metric=ari");
    const history = await estimateHistory(projectId, { metric: "ari" });
    expect(after.round).toEqual({ index: 1, nLabels: 30, estimator: history[1].estimator });
    const values = after.rows.map((r) => r.estimate!.value);
    expect(values).toEqual([...values].sort((a, b) => b - a));
    for (const row of after.rows) {
      const [was, now] = history.map((r) => r.estimates.find((e) => e.clustering === row.name)!);
      expect(row.estimate).toEqual({ value: now.value, lo: now.lo, hi: now.hi, pBest: now.pBest, change: now.value - was.value });
    }
    expect(after.agreement).toEqual({ rho: spearman(values, after.rows.map((r) => r.labelFree!.ace!)), n: 6 });
  });

  it("answers 401 signed out, 403 to an annotator and 400 for an unknown metric", async () => {
    const { projectId, owner, annotators } = await digitsProject();
    expect((await get(null, projectId)).status).toBe(401);
    expect((await get(annotators[0].id, projectId)).status).toBe(403);
    const bad = await get(owner.id, projectId, "?metric=purity");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toMatch(/metric must be one of nmi, ami/);
  });
});
