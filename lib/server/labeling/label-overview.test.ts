import { describe, expect, it } from "vitest";
import * as overviewRoute from "@/app/api/projects/[projectId]/label-overview/route";
import * as labelsRoute from "@/app/api/projects/[projectId]/labels/route";
import { cohenKappa } from "@/lib/metrics/agreement";
import { db } from "../db";
import { digitsProject } from "./labeling-test-fixture";
import { resolveTie, submitLabel } from "./labels";
import { nextTasks } from "./tasks";
import type { SessionUser } from "../auth/session";
import { requestAs, routeContext } from "../http/test-requests";

const get = async (userId: string | null, projectId: string, query = "") => {
  const user = userId ? await db().user.findUniqueOrThrow({ where: { id: userId } }) : null;
  return overviewRoute.GET(await requestAs(user, `/api/projects/${projectId}/label-overview${query}`), routeContext({ projectId }));
};

let key = 0;
/** Labels `count` tasks; `answer` picks the class from the item's truth. */
async function label(user: SessionUser, projectId: string, count: number, answer: (item: number) => number) {
  const given: { item: number; value: number }[] = [];
  for (let i = 0; i < count; i++) {
    const [task] = (await nextTasks(user, projectId, 1)).tasks;
    const value = answer(task.item.index);
    await submitLabel(user, projectId, { taskId: task.id, kind: "label", classIndex: value, idempotencyKey: `overview-${key++}` });
    given.push({ item: task.item.index, value });
  }
  return given;
}

describe("label overview", () => {
  it("gives the class distribution, labels per annotator, Cohen's kappa for two overlapping annotators, recent labels paged, and ties", async () => {
    const { projectId, owner, annotators, truth } = await digitsProject({ overlap: 2, seedSize: 8 });
    const a = await label(annotators[0], projectId, 8, (item) => truth[item]);
    // the second annotator disagrees on items whose true class is odd
    const b = await label(annotators[1], projectId, 8, (item) => (truth[item] % 2 ? (truth[item] + 1) % 10 : truth[item]));

    const response = await get(owner.id, projectId, "?pageSize=5");
    expect(response.status).toBe(200);
    const body = await response.json();
    const byItemB = new Map(b.map((x) => [x.item, x.value]));
    const disagree = a.filter((x) => byItemB.get(x.item) !== x.value);
    const agree = a.filter((x) => byItemB.get(x.item) === x.value);

    // agreed tasks count toward their class; a 1-1 split is a tie and counts nowhere
    const expectedCounts = new Array(10).fill(0);
    for (const x of agree) expectedCounts[x.value]++;
    expect(body.classes.map((c: { count: number }) => c.count)).toEqual(expectedCounts);
    expect(body.classes[3]).toMatchObject({ value: "3", name: "3" });
    expect(body.ties).toHaveLength(disagree.length);
    expect(body.ties.map((t: { item: { index: number } }) => t.item.index).sort()).toEqual(disagree.map((x) => x.item).sort());

    expect(body.annotators.map((x: { labels: number; skips: number }) => [x.labels, x.skips])).toEqual([[8, 0], [8, 0]]);
    const kappa = cohenKappa(a.map((x) => x.value), a.map((x) => byItemB.get(x.item)!));
    expect(body.agreement).toMatchObject({ method: "cohen", units: 8, raters: 2, unanimous: agree.length / 8 });
    expect(body.agreement.value).toBeCloseTo(kappa, 12);

    expect(body.recent.total).toBe(16);
    expect(body.recent.labels).toHaveLength(5);
    expect(body.recent.labels[0]).toMatchObject({ annotator: annotators[1].name, kind: "label", usedByRound: null });
    expect(body.recent.labels[0].item.index).toBe(b[7].item);
    const page3 = await (await get(owner.id, projectId, "?pageSize=5&page=3")).json();
    expect(page3.recent.labels).toHaveLength(1);
    expect(page3.recent.labels[0].item.index).toBe(a[0].item);

    // the owner resolves one tie: it leaves the list and counts for the chosen class
    expect(disagree.length).toBeGreaterThan(0);
    await resolveTie(owner, projectId, body.ties[0].taskId, { classIndex: 4 });
    const after = await (await get(owner.id, projectId)).json();
    expect(after.ties).toHaveLength(disagree.length - 1);
    expect(after.classes[4].count).toBe(expectedCounts[4] + 1);
  });

  it("gives the median seconds per answer of each annotator and of the project's mode, from the times the label page sent", async () => {
    const { projectId, owner, annotators } = await digitsProject({ seedSize: 8 });
    const answer = async (user: SessionUser, durationMs: number | undefined, kind: "label" | "skip" = "label") => {
      const [task] = (await nextTasks(user, projectId, 1)).tasks;
      return submitLabel(user, projectId, { taskId: task.id, kind, ...(kind === "label" ? { classIndex: 0 } : {}), durationMs, idempotencyKey: `timed-${key++}` });
    };
    expect((await answer(annotators[0], 2000)).label.durationMs).toBe(2000);
    await answer(annotators[0], 4000);
    // a skip took time too; an answer sent without a time counts nowhere
    await answer(annotators[0], 9000, "skip");
    await answer(annotators[0], undefined);
    await answer(annotators[1], 1500);
    await answer(annotators[1], 2500);
    const body = await (await get(owner.id, projectId)).json();
    const rows = Object.fromEntries(body.annotators.map((a: { userId: string; timedAnswers: number; medianSeconds: number }) => [a.userId, [a.timedAnswers, a.medianSeconds]]));
    expect(rows).toEqual({ [annotators[0].id]: [3, 4], [annotators[1].id]: [2, 2] });
    // over all five timed answers: 1.5, 2, 2.5, 4, 9 s
    expect(body.answerTime).toEqual({ mode: "clusterwise", timedAnswers: 5, medianSeconds: 2.5 });
    // a time the page could not have measured is refused (400) with what is wrong
    const [task] = (await nextTasks(annotators[1], projectId, 1)).tasks;
    const row = await db().user.findUniqueOrThrow({ where: { id: annotators[1].id } });
    for (const [durationMs, message] of [[12.5, "durationMs: durationMs is a whole number of milliseconds."], [-1, "durationMs: durationMs cannot be negative."]] as const) {
      const json = { taskId: task.id, kind: "label", classIndex: 0, durationMs, idempotencyKey: `timed-bad-${durationMs}` };
      const response = await labelsRoute.POST(await requestAs(row, `/api/projects/${projectId}/labels`, { method: "POST", json }), routeContext({ projectId }));
      expect(response.status).toBe(400);
      expect((await response.json()).error.message).toContain(message);
    }
  });

  it("answers 401 without a session, 403 to an annotator, 400 for a bad page size; no agreement without overlap", async () => {
    const { projectId, owner, annotators, truth } = await digitsProject();
    expect((await get(null, projectId)).status).toBe(401);
    expect((await get(annotators[0].id, projectId)).status).toBe(403);
    expect((await get(owner.id, projectId, "?pageSize=1000")).status).toBe(400);
    await label(annotators[0], projectId, 3, (item) => truth[item]);
    const body = await (await get(owner.id, projectId)).json();
    expect(body.agreement).toBeNull();
    expect(body.ties).toEqual([]);
    expect(body.recent.labels[0].item.imageUrl).toBeNull();
  });
});
