import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import * as itemsRoute from "@/app/api/projects/[projectId]/items/route";
import { readNpy } from "@/lib/data/npy";
import { db } from "../db";
import type { CellItem, CellPage } from "./items";
import { DIGITS, digitsProject, fastWorkerDeps, labelAll } from "./labeling-test-fixture";
import { requestAs, routeContext } from "../http/test-requests";
import { runOneJob } from "../jobs/worker-loop";

let fixture: Awaited<ReturnType<typeof digitsProject>>;
let kmeans: Int32Array;

async function get(userId: string, query: string) {
  const user = await db().user.findUniqueOrThrow({ where: { id: userId } });
  return itemsRoute.GET(await requestAs(user, `/api/projects/${fixture.projectId}/items?${query}`), routeContext({ projectId: fixture.projectId }));
}

/** Every page of a cell, following the cursor. */
async function wholeCell(query: string, limit: number): Promise<{ items: CellItem[]; pages: CellPage[] }> {
  const pages: CellPage[] = [];
  let after = -1;
  for (;;) {
    const r = await get(fixture.owner.id, `${query}&limit=${limit}&after=${after}`);
    expect(r.status).toBe(200);
    const page = (await r.json()) as CellPage;
    pages.push(page);
    if (page.next === null) break;
    after = page.next;
  }
  return { items: pages.flatMap((p) => p.items), pages };
}

const labeledIndices = async () =>
  new Set((await db().task.findMany({ where: { projectId: fixture.projectId, done: true }, select: { itemIndex: true } })).map((t) => t.itemIndex));

beforeAll(async () => {
  fixture = await digitsProject();
  kmeans = (await readNpy(path.join(DIGITS, "clusterings", "kmeans_k10.npy"))).data as Int32Array;
  await labelAll(fixture.annotators[0], fixture.projectId, fixture.truth, 20);
});

describe("the items of one contingency cell", () => {
  it("refuses what it cannot answer, with the reason; owners only", async () => {
    const message = async (query: string, status: number) => {
      const r = await get(fixture.owner.id, query);
      expect(r.status).toBe(status);
      return (await r.json()).error.message as string;
    };
    expect(await message("cluster=1", 400)).toBe("Filtering by cluster or class needs the clustering too: ?clustering=NAME&cluster=K&class=C.");
    expect(await message("clustering=nope&cluster=1", 404)).toBe("This project has no clustering named nope.");
    expect(await message("clustering=kmeans_k10&cluster=10", 400)).toBe("kmeans_k10 has clusters 0 to 9; there is no cluster 10.");
    expect(await message("clustering=kmeans_k10&class=12", 400)).toBe("This project has classes 0 to 9; there is no class 12.");
    expect((await get(fixture.annotators[0].id, "clustering=kmeans_k10&cluster=1")).status).toBe(403);
  });

  it("before any round holds the labeled items of that class in that cluster", async () => {
    const labeled = await labeledIndices();
    const [first] = labeled;
    const c = fixture.truth[first];
    const k = kmeans[first];
    const { items, pages } = await wholeCell(`clustering=kmeans_k10&cluster=${k}&class=${c}`, 100);
    const expected = [...labeled].filter((i) => fixture.truth[i] === c && kmeans[i] === k).sort((a, b) => a - b);
    expect(items.map((i) => i.index)).toEqual(expected);
    expect(items.every((i) => i.labeled && i.class === c && i.cluster === k && i.confidence === null)).toBe(true);
    expect(pages[0]).toMatchObject({ total: expected.length, source: { kind: "labels", round: null } });
  });

  it("after a round holds labels and pseudo-labels, page by page, each pseudo-label with its confidence", async () => {
    await runOneJob("w", { deps: fastWorkerDeps });
    const project = await db().project.findUniqueOrThrow({ where: { id: fixture.projectId } });
    const round = await db().round.findFirstOrThrow({ where: { projectId: fixture.projectId, index: 0 } });
    const results = (await readNpy(path.join(process.env.CEREAL_DATA_DIR!, project.dataPath, round.resultsFile!))).data;
    const labeled = await labeledIndices();
    // the largest cell of cluster 3, so it spans several pages
    const counts = new Map<number, number>();
    for (let i = 0; i < project.n; i++) if (kmeans[i] === 3) counts.set(results[i * 2], (counts.get(results[i * 2]) ?? 0) + 1);
    const c = [...counts].sort((a, b) => b[1] - a[1])[0][0];
    const expected = Array.from({ length: project.n }, (_, i) => i).filter((i) => kmeans[i] === 3 && results[i * 2] === c);
    expect(expected.length).toBeGreaterThan(50);

    const { items, pages } = await wholeCell(`clustering=kmeans_k10&cluster=3&class=${c}`, 25);
    expect(pages.length).toBe(Math.ceil(expected.length / 25));
    expect(items.map((i) => i.index)).toEqual(expected);
    expect(pages[0]).toMatchObject({ total: expected.length, source: { kind: "round", round: 0 } });
    for (const item of items) {
      expect(item).toMatchObject({ cluster: 3, class: c, labeled: labeled.has(item.index) });
      if (labeled.has(item.index)) expect(item.confidence).toBeNull();
      else expect(item.confidence).toBeCloseTo(results[item.index * 2 + 1], 6);
    }

    // a whole cluster, every class: the cluster's size
    const cluster = await (await get(fixture.owner.id, "clustering=kmeans_k10&cluster=3&limit=1")).json();
    expect(cluster.total).toBe(kmeans.filter((k) => k === 3).length);
  });
});
