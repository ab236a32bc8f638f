import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import * as contingencyRoute from "@/app/api/projects/[projectId]/contingency/route";
import { readNpy } from "@/lib/data/npy";
import { apMetric } from "@/lib/metrics";
import { db } from "../db";
import { DIGITS, digitsProject, fastWorkerDeps, labelAll } from "../labeling/labeling-test-fixture";
import { requestAs, routeContext } from "../http/test-requests";
import { runOneJob } from "../jobs/worker-loop";

let fixture: Awaited<ReturnType<typeof digitsProject>>;
let assignments: Int32Array;
const userRow = (id: string) => db().user.findUniqueOrThrow({ where: { id } });

async function view(userId: string | null, query: string) {
  const user = userId ? await userRow(userId) : null;
  return contingencyRoute.GET(await requestAs(user, `/api/projects/${fixture.projectId}/contingency${query}`), routeContext({ projectId: fixture.projectId }));
}

beforeAll(async () => {
  fixture = await digitsProject();
  assignments = (await readNpy(path.join(DIGITS, "clusterings", "kmeans_k10.npy"))).data as Int32Array;
});

describe("contingency view", () => {
  it("answers 401 without a session, 403 to an annotator, 400 without a clustering, 404 for an unknown one", async () => {
    expect((await view(null, "?clustering=kmeans_k10")).status).toBe(401);
    const asAnnotator = await view(fixture.annotators[0].id, "?clustering=kmeans_k10");
    expect(asAnnotator.status).toBe(403);
    expect((await asAnnotator.json()).error.code).toBe("forbidden");
    expect((await view(fixture.owner.id, "")).status).toBe(400);
    expect((await view(fixture.owner.id, "?clustering=nope")).status).toBe(404);
  });

  it("before any round counts the labels alone: class x cluster cells equal the labeled items' truth and clusters", async () => {
    await labelAll(fixture.annotators[0], fixture.projectId, fixture.truth, 20);
    const tasks = await db().task.findMany({ where: { projectId: fixture.projectId, done: true } });
    expect(tasks).toHaveLength(20);
    const expected = Array.from({ length: 10 }, () => new Array<number>(10).fill(0));
    for (const t of tasks) expected[fixture.truth[t.itemIndex]][assignments[t.itemIndex]]++;

    const body = await (await view(fixture.owner.id, "?clustering=kmeans_k10")).json();
    expect(body.source).toEqual({ kind: "labels", round: null });
    expect(body.cells).toEqual(expected);
    expect(body).toMatchObject({ labeled: 20, pseudoLabeled: 0, k: 10, classes: ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"] });
    const ap = apMetric(expected);
    expect(body.associativity).toBeCloseTo(ap.associativity, 12);
    expect(body.peakiness).toBeCloseTo(ap.peakiness, 12);
    expect(body.ap).toBeCloseTo(ap.ap, 12);
  });

  it("after a round counts labels plus the round's pseudo-labels over every item, boxing each class's largest cells", async () => {
    await runOneJob("w", { deps: fastWorkerDeps });
    const round = await db().round.findFirstOrThrow({ where: { projectId: fixture.projectId, index: 0 } });
    expect(round.status).toBe("done");
    const project = await db().project.findUniqueOrThrow({ where: { id: fixture.projectId } });
    const results = (await readNpy(path.join(process.env.CEREAL_DATA_DIR!, project.dataPath, round.resultsFile!))).data;
    const expected = Array.from({ length: 10 }, () => new Array<number>(10).fill(0));
    for (let i = 0; i < project.n; i++) if (results[i * 2] >= 0) expected[results[i * 2]][assignments[i]]++;

    const body = await (await view(fixture.owner.id, "?clustering=kmeans_k10")).json();
    expect(body.source).toEqual({ kind: "round", round: 0 });
    expect(body.cells).toEqual(expected);
    expect(body.labeled).toBe(20);
    expect(body.labeled + body.pseudoLabeled).toBe(1797);
    body.rowMaxima.forEach((cols: number[], r: number) => {
      const max = Math.max(...expected[r]);
      expect(cols).toEqual(max === 0 ? [] : expected[r].flatMap((v, k) => (v === max ? [k] : [])));
    });
    expect(body.ap).toBeCloseTo(apMetric(expected).ap, 12);
    expect(body.ap).toBeGreaterThan(0.3);
  });
});
