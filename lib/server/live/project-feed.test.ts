import { describe, expect, it } from "vitest";
import { db } from "../db";
import { digitsProject, labelAll } from "../labeling/labeling-test-fixture";
import { projectSnapshot, snapshotAs, snapshotStream } from "./events";
import { createProjectFeeds, memberRoles } from "./project-feed";

/** Reads a server-sent events body as it arrives. */
function reader(response: Response) {
  const body = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let ended = false;
  const pump = (async () => {
    for (;;) {
      const { done, value } = await body.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    ended = true;
  })();
  return {
    text: () => text,
    ended: () => ended,
    snapshots: () => [...text.matchAll(/event: snapshot\ndata: (.*)\n\n/g)].map((m) => JSON.parse(m[1]) as { labels: number }),
    pump,
  };
}

const until = async (what: string, check: () => boolean) => {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
};

describe("project feeds", () => {
  it("polls once per tick for 20 open streams of one project, computes each role's snapshot once, and every stream gets each change", async () => {
    const { projectId, owner, annotators, truth } = await digitsProject();
    const ticks: number[] = []; // distinct roles seen by each tick
    let snapshots = 0;
    const feeds = createProjectFeeds(
      {
        roles: async (id, userIds) => {
          const roles = await memberRoles(id, userIds);
          ticks.push(new Set(roles.values()).size);
          return roles;
        },
        snapshot: async (id, role) => {
          snapshots++;
          return JSON.stringify(await snapshotAs(id, role));
        },
      },
      { pollMs: 20 },
    );
    const viewers = Array.from({ length: 20 }, (_, i) => [owner, ...annotators][i % 3]);
    const controllers = viewers.map(() => new AbortController());
    const streams = await Promise.all(viewers.map(async (user, i) => reader(snapshotStream(user, projectId, await projectSnapshot(user, projectId), controllers[i].signal, feeds))));
    expect(streams.every((s) => s.snapshots()[0]?.labels === 0)).toBe(true);
    expect(feeds.polled()).toEqual([projectId]);

    await labelAll(annotators[0], projectId, truth, 1);
    await until("every stream to show the new label", () => streams.every((s) => s.snapshots().at(-1)?.labels === 1));
    // every stream sent each distinct snapshot once: no repeats while nothing changed (the stage
    // drawn after the label may land in a snapshot of its own, as it does on PostgreSQL)
    for (const s of streams) {
      const sent = s.snapshots().map((x) => JSON.stringify(x));
      expect(sent.filter((x, i) => i > 0 && x === sent[i - 1])).toEqual([]);
      expect([...new Set(s.snapshots().map((x) => x.labels))]).toEqual([0, 1]);
    }
    const ticksSoFar = ticks.length;
    await until("a few more ticks", () => ticks.length >= ticksSoFar + 3);

    // an annotator removed from the project: that user's streams end with an error, the others go on
    await db().projectMember.deleteMany({ where: { projectId, userId: annotators[1].id } });
    const removed = streams.filter((_, i) => viewers[i] === annotators[1]);
    await until("the removed annotator's streams to end", () => removed.every((s) => s.ended()));
    expect(removed.every((s) => s.text().includes('event: error\ndata: {"message":"You are not a member of this project."}'))).toBe(true);

    controllers.forEach((c) => c.abort());
    await Promise.all(streams.map((s) => s.pump));
    expect(feeds.polled()).toEqual([]); // the last stream closed: no poller left
    const ticksAtClose = ticks.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ticks.length).toBeLessThanOrEqual(ticksAtClose + 1); // at most the tick in flight at close

    // one snapshot per role per tick (owner and annotator: at most 2), not one per stream
    expect(snapshots).toBe(ticks.reduce((a, b) => a + b, 0));
    expect(Math.max(...ticks)).toBe(2);
    expect(ticks.length).toBeGreaterThan(3);
  });

  it("ticks when woken instead of at the next poll, coalesces wakes during a tick into one more tick, and keeps wakes minGapMs apart", async () => {
    const starts: number[] = [];
    let gate: Promise<void> = Promise.resolve();
    let open = () => {};
    const feeds = createProjectFeeds(
      {
        roles: async (_id, userIds) => {
          starts.push(Date.now());
          return new Map(userIds.map((u) => [u, "ANNOTATOR" as const]));
        },
        snapshot: async (id) => {
          await gate;
          return JSON.stringify({ id, tick: starts.length });
        },
      },
      { pollMs: 60_000, minGapMs: 40 }, // no poll can fire during this test: every tick after the first is a wake's
    );
    const got: string[] = [];
    const stopA = feeds.watch("a", "u1", (e) => got.push("snapshot" in e ? e.snapshot : e.error));
    await until("the first tick", () => got.length === 1);
    feeds.wake("nobody-watches-this"); // no-op
    expect(feeds.polled()).toEqual(["a"]);

    feeds.wake("a");
    await until("the woken tick", () => got.length === 2);

    // 20 changes while a tick runs: one more tick after it, not 20
    gate = new Promise<void>((resolve) => (open = resolve));
    feeds.wake("a");
    await until("the third tick to start", () => starts.length === 3);
    for (let i = 0; i < 20; i++) feeds.wake("a");
    open();
    await until("the tick after the burst", () => got.length === 4);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(starts).toHaveLength(4);
    expect(got).toHaveLength(4);
    // woken ticks start minGapMs apart at least (2 ms for timer rounding)
    for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(38);

    // wakeAll reaches every watched project
    const gotB: string[] = [];
    const stopB = feeds.watch("b", "u2", (e) => gotB.push("snapshot" in e ? e.snapshot : e.error));
    await until("b's first tick", () => gotB.length === 1);
    feeds.wakeAll();
    await until("both woken", () => got.length === 5 && gotB.length === 2);
    stopA();
    stopB();
    expect(feeds.polled()).toEqual([]);
  });
});
