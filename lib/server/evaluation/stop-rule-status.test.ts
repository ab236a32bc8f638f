import { describe, expect, it } from "vitest";
import * as stopRuleRoute from "@/app/api/projects/[projectId]/stop-rule/route";
import { stopDecision, type HistoryPoint } from "@/lib/cereal/method/stop-rule";
import { db } from "../db";
import { digitsProject, fastWorkerDeps, labelAll } from "../labeling/labeling-test-fixture";
import { requestAs, routeContext } from "../http/test-requests";
import { runOneJob } from "../jobs/worker-loop";

const get = async (userId: string | null, projectId: string) => {
  const user = userId ? await db().user.findUniqueOrThrow({ where: { id: userId } }) : null;
  return stopRuleRoute.GET(await requestAs(user, `/api/projects/${projectId}/stop-rule`), routeContext({ projectId }));
};

describe("stop-rule status", () => {
  it("reads each clustering's interval history: width of the last round, no move before four rounds, labels still needed from the fit", async () => {
    const { projectId, owner, annotators, truth } = await digitsProject();
    expect((await (await get(owner.id, projectId)).json()).status).toEqual({});
    await labelAll(annotators[0], projectId, truth, 20);
    await runOneJob("w", { deps: fastWorkerDeps });
    await labelAll(annotators[0], projectId, truth, 10);
    await runOneJob("w", { deps: fastWorkerDeps });

    const { status } = await (await get(owner.id, projectId)).json();
    const rounds = await db().round.findMany({ where: { projectId, status: "done" }, orderBy: { index: "asc" }, include: { estimates: { include: { clustering: true } } } });
    expect(rounds.map((r) => r.nLabels)).toEqual([20, 30]);
    const last = rounds[1].estimates.find((e) => e.clustering.name === "kmeans_k10" && e.metric === "nmi")!;
    const nmi = status.kmeans_k10.nmi;
    expect(nmi.rounds).toBe(2);
    expect(nmi.width).toBeCloseTo(last.hi! - last.lo!, 12);
    expect(nmi.moved).toBeNull();
    expect(nmi.converged).toBe(false);
    // two wide intervals: either shrinking (a positive count) or not (null), never "done"
    expect(nmi.labelsStillNeeded === null || nmi.labelsStillNeeded > 0).toBe(true);
    expect(Object.keys(status).sort()).toEqual(["gmm_k10", "gmm_k15", "gmm_k5", "kmeans_k10", "kmeans_k15", "kmeans_k5"]);
    // the projection reads the project's n items as the pool the labels come from
    const { n } = await db().project.findUniqueOrThrow({ where: { id: projectId } });
    const projections: [number | null, number | null, number | null][] = [];
    for (const clustering of Object.keys(status))
      for (const metric of Object.keys(status[clustering])) {
        const history: HistoryPoint[] = rounds.map((r) => {
          const e = r.estimates.find((x) => x.clustering.name === clustering && x.metric === metric)!;
          return { nLabels: r.nLabels, estimate: e.value, interval: [e.lo!, e.hi!] };
        });
        projections.push([status[clustering][metric].labelsStillNeeded, stopDecision(history, { poolSize: n }).labelsStillNeeded, stopDecision(history).labelsStillNeeded]);
      }
    expect(projections.every(([app, pooled]) => app === pooled)).toBe(true);
    // at most the items left (labeling them all makes the metric exact), where the same widths from a pool without end ask for more
    const projected = projections.filter(([app]) => app !== null);
    expect(projected.length).toBeGreaterThan(0);
    expect(projected.every(([app, , unbounded]) => app === Math.min(unbounded!, n - 30))).toBe(true);
    expect(projected.some(([, , unbounded]) => unbounded! > n - 30)).toBe(true);
  });

  it("reads a pairwise project's rounds too: their estimates carry intervals", async () => {
    const { projectId, owner, annotators, truth } = await digitsProject({ mode: "pairwise" });
    await labelAll(annotators[0], projectId, truth, 20);
    await runOneJob("w", { deps: fastWorkerDeps });
    await labelAll(annotators[0], projectId, truth, 10);
    await runOneJob("w", { deps: fastWorkerDeps });
    const rounds = await db().round.findMany({ where: { projectId, status: "done" }, orderBy: { index: "asc" }, include: { estimates: { include: { clustering: true } } } });
    expect(rounds.map((r) => r.nLabels)).toEqual([20, 30]);
    const last = rounds[1].estimates.find((e) => e.clustering.name === "gmm_k10" && e.metric === "ari")!;
    const { status } = await (await get(owner.id, projectId)).json();
    expect(status.gmm_k10.ari).toMatchObject({ rounds: 2, moved: null, converged: false });
    expect(status.gmm_k10.ari.width).toBeCloseTo(last.hi! - last.lo!, 12);
  });

  it("answers 401 without a session and 403 to an annotator", async () => {
    const { projectId, annotators } = await digitsProject();
    expect((await get(null, projectId)).status).toBe(401);
    expect((await get(annotators[1].id, projectId)).status).toBe(403);
  });
});
