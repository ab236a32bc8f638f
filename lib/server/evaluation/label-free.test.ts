import { describe, expect, it } from "vitest";
import * as labelFreeRoute from "@/app/api/projects/[projectId]/label-free/route";
import { db } from "../db";
import { evaluateLabelFree } from "@/lib/ace";
import { loadSpacesBundle } from "@/lib/data/embedding-spaces";
import { importBundle } from "../imports/imports";
import { asSession, digitsProject, fastWorkerDeps } from "../labeling/labeling-test-fixture";
import { labelFreeJob } from "./label-free";
import { createTestUser, requestAs, routeContext } from "../http/test-requests";
import { runOneJob } from "../jobs/worker-loop";

const worker = { deps: fastWorkerDeps, jobs: [labelFreeJob] };

async function get(user: { id: string }, projectId: string, query = "") {
  const full = await db().user.findUniqueOrThrow({ where: { id: user.id } });
  return labelFreeRoute.POST(await requestAs(full, `/api/projects/${projectId}/label-free${query}`, { method: "POST" }), routeContext({ projectId }));
}

describe("label-free evaluation of a project's clusterings", () => {
  it("is unavailable above its item limit, with the reason, and queues nothing", async () => {
    const { projectId, owner } = await digitsProject();
    await db().project.update({ where: { id: projectId }, data: { n: 1_000_000 } });
    const body = await (await get(owner, projectId)).json();
    expect(body).toEqual({
      state: "unavailable",
      measure: "silhouette",
      reason:
        "Label-free scores are limited to 20,000 items (the dip test's null and the per-space scores grow faster than N); this project has 1,000,000. The estimates from labels are unaffected.",
    });
    expect(await db().job.count({ where: { projectId, kind: "label-free" } })).toBe(0);
  });

  it("queues the job, then serves the cached paired, pooled and ACE scores until the clusterings change", async () => {
    const { projectId, owner, annotators } = await digitsProject();
    expect((await get(annotators[0], projectId)).status).toBe(403);
    const first = await (await get(owner, projectId)).json();
    expect(first).toMatchObject({ state: "computing", measure: "silhouette" });
    // asking again while it runs does not queue a second job
    expect((await (await get(owner, projectId)).json()).jobId).toBe(first.jobId);

    expect(await runOneJob("worker-test", worker)).toBe(true);
    const ready = await (await get(owner, projectId)).json();
    expect(ready.state).toBe("ready");
    // data/digits has one space (its embeddings) and 6 clusterings: paired = pooled = ACE
    expect(ready.spaces).toHaveLength(1);
    expect(ready.spaces[0]).toMatchObject({ name: "embeddings", weight: 1 });
    expect(ready.clusterings).toHaveLength(6);
    for (const c of ready.clusterings) {
      expect(c.paired).toBeCloseTo(c.ace, 12);
      expect(c.pooled).toBeCloseTo(c.ace, 12);
    }
    // the silhouette of k-means k = 10 on the digits' pixels (scikit-learn: 0.1825)
    expect(ready.clusterings.find((c: { name: string }) => c.name === "kmeans_k10").paired).toBeCloseTo(0.1825, 3);

    // another measure is computed separately; an unknown one is refused
    expect((await (await get(owner, projectId, "?measure=davies-bouldin")).json()).state).toBe("computing");
    const bad = await get(owner, projectId, "?measure=dunn");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toMatch(/measure must be one of silhouette, davies-bouldin, calinski-harabasz/);

    // a removed clustering makes the cache stale
    await db().clustering.delete({ where: { id: ready.clusterings[0].id } });
    expect((await (await get(owner, projectId)).json()).state).toBe("computing");
    await db().job.updateMany({ where: { projectId, status: "queued" }, data: { status: "cancelled" } });
  });

  it("on digits-spaces, the job (space by space) gives what evaluateLabelFree gives on the bundle", async () => {
    const owner = asSession(await createTestUser("RESEARCHER"));
    const { projectId } = await importBundle("data/digits-spaces", owner.id, { name: "Digits spaces", mode: "clusterwise" });
    const { seed } = await db().project.findUniqueOrThrow({ where: { id: projectId } });
    await get(owner, projectId);
    expect(await runOneJob("worker-test", worker)).toBe(true);
    const ready = await (await get(owner, projectId)).json();
    expect(ready.state).toBe("ready");
    const bundle = await loadSpacesBundle("data/digits-spaces");
    const direct = evaluateLabelFree(bundle.spaces, bundle.clusterings, "silhouette", { seed });
    const byName = new Map(ready.clusterings.map((c: { name: string }) => [c.name, c]));
    bundle.clusterings.forEach((c, i) => {
      const served = byName.get(c.name) as { paired: number; pooled: number; ace: number };
      expect(served.paired).toBeCloseTo(direct.matrix.paired[i], 12);
      expect(served.pooled).toBeCloseTo(direct.pooled[i], 12);
      expect(served.ace).toBeCloseTo(direct.ace.scores[i], 12);
    });
    // scikit-learn's silhouette of raw_kmeans_k8 in its own space, from the manifest
    expect((byName.get("raw_kmeans_k8") as { paired: number }).paired).toBeCloseTo(0.17875851690769196, 6);
    expect(ready.spaces.map((s: { name: string }) => s.name).sort()).toEqual([...bundle.spaces.map((s) => s.name)].sort());
  });
});
