import { describe, expect, it } from "vitest";
import * as labelFreeRoute from "@/app/api/projects/[projectId]/label-free/route";
import { db } from "./db";
import { digitsProject } from "./labeling-test-fixture";
import { labelFreeJobHandler } from "./label-free";
import { requestAs, routeContext } from "./test-requests";
import { runOneJob } from "./worker";

const handlers = { "label-free": labelFreeJobHandler };

async function get(user: { id: string }, projectId: string, query = "") {
  const full = await db().user.findUniqueOrThrow({ where: { id: user.id } });
  return labelFreeRoute.GET(await requestAs(full, `/api/projects/${projectId}/label-free${query}`), routeContext({ projectId }));
}

describe("label-free evaluation of a project's clusterings", () => {
  it("queues the job, then serves the cached paired, pooled and ACE scores until the clusterings change", async () => {
    const { projectId, owner, annotators } = await digitsProject();
    expect((await get(annotators[0], projectId)).status).toBe(403);
    const first = await (await get(owner, projectId)).json();
    expect(first).toMatchObject({ state: "computing", measure: "silhouette" });
    // asking again while it runs does not queue a second job
    expect((await (await get(owner, projectId)).json()).jobId).toBe(first.jobId);

    expect(await runOneJob("worker-test", { handlers })).toBe(true);
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
  });
});
