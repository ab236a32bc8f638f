import { describe, expect, it } from "vitest";
import * as trueMetricsRoute from "@/app/api/projects/[projectId]/true-metrics/route";
import { METRIC_KEYS } from "@/lib/metrics";
import { db } from "../db";
import { digitsProject } from "../labeling/labeling-test-fixture";
import { createTestProject } from "../projects/test-projects";
import { requestAs, routeContext } from "../http/test-requests";

const get = async (userId: string | null, projectId: string) => {
  const user = userId ? await db().user.findUniqueOrThrow({ where: { id: userId } }) : null;
  return trueMetricsRoute.GET(await requestAs(user, `/api/projects/${projectId}/true-metrics`), routeContext({ projectId }));
};

describe("true metrics", () => {
  it("computes every metric key of each clustering against labels.npy, equal to the bundle's scikit-learn values", async () => {
    const { projectId, owner } = await digitsProject();
    const response = await get(owner.id, projectId);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.available).toBe(true);
    const clusterings = await db().clustering.findMany({ where: { projectId } });
    expect(Object.keys(body.metrics).sort()).toEqual(clusterings.map((c) => c.name).sort());
    for (const c of clusterings) {
      expect(Object.keys(body.metrics[c.name]).sort()).toEqual([...METRIC_KEYS].sort());
      const sklearn = c.trueMetrics as { nmi: number; ami: number; ari: number };
      expect(body.metrics[c.name].nmi).toBeCloseTo(sklearn.nmi, 9);
      expect(body.metrics[c.name].ami).toBeCloseTo(sklearn.ami, 9);
      expect(body.metrics[c.name].ari).toBeCloseTo(sklearn.ari, 9);
    }
    // cached: the second answer is the same values
    expect(await (await get(owner.id, projectId)).json()).toEqual(body);
  });

  it("answers 401 without a session and 403 to an annotator; a bundle without labels has none", async () => {
    const { projectId, annotators } = await digitsProject();
    expect((await get(null, projectId)).status).toBe(401);
    expect((await get(annotators[0].id, projectId)).status).toBe(403);
    const unlabeled = await createTestProject({ classes: 0 });
    expect(await (await get(unlabeled.owner.id, unlabeled.projectId)).json()).toEqual({ available: false, metrics: {} });
  });
});
