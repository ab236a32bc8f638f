import { describe, expect, it } from "vitest";
import type { TaskView } from "@/lib/server/labeling/tasks";
import { itemAnnouncement, roundAnnouncement, saveAnnouncement } from "./workspace-announcements";

const item = (externalId: string): TaskView["item"] => ({ index: 0, externalId, imageUrl: null, text: null });
const task = (stage: number, b?: string): TaskView => ({ id: "t", stage, drawnByRound: stage === 0 ? null : stage - 1, leaseExpiresAt: "", item: item("img-7"), itemB: b ? item(b) : null, hint: null });

describe("workspace announcements", () => {
  it("names the item or pair and where it comes from, or the notice when there is none", () => {
    expect(itemAnnouncement(task(0), null)).toBe("Item img-7, seed stage");
    expect(itemAnnouncement(task(2), null)).toBe("Item img-7, stage 2");
    expect(itemAnnouncement(task(1, "img-9"), null)).toBe("Pair img-7 and img-9, stage 1");
    expect(itemAnnouncement(null, "Every remaining task is taken")).toBe("Every remaining task is taken");
    expect(itemAnnouncement(task(0), null, { name: "circle", position: 2, total: 13 })).toBe("Item img-7, seed stage. Same class as circle? Class 2 of 13");
  });

  it("speaks of saving only when answers are all saved or in trouble, not while each one is on its way", () => {
    expect(saveAnnouncement(0, false)).toBe("All answers saved");
    expect(saveAnnouncement(2, false)).toBeNull();
    expect(saveAnnouncement(2, true)).toBe("Connection trouble: your answers are kept and sent again");
  });

  it("tells a round's phase, never its training step", () => {
    const running = (phase: string, step = 10) => ({ index: 3, status: "running" as const, progress: { phase, step, total: 64 }, error: null });
    expect(roundAnnouncement(running("training"), null)).toBe("Round 3 training");
    expect(roundAnnouncement(running("training", 11), null)).toBe(roundAnnouncement(running("training", 12), null));
    expect(roundAnnouncement(running("writing"), null)).toBe("Round 3 saving results");
    expect(roundAnnouncement({ index: 3, status: "queued", progress: null, error: null }, null)).toBe("Round 3 queued");
    expect(roundAnnouncement({ index: 3, status: "failed", progress: null, error: "x" }, null)).toBe("Round 3 failed; the owner can retry it");
    expect(roundAnnouncement(null, { index: 2, nLabels: 30, finishedAt: null })).toBe("Round 2 finished");
    expect(roundAnnouncement(null, null)).toBe("");
  });
});
