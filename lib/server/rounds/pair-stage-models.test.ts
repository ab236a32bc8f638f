import { describe, expect, it } from "vitest";
import { drawingRounds } from "./pair-stage-models";

const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 12, minute));

describe("drawingRounds", () => {
  it("gives a stage a round drew that round, and a stage drawn ahead the latest round finished before it", () => {
    const rounds = [
      { index: 0, finishedAt: at(10) },
      { index: 1, finishedAt: at(20) },
    ];
    const stages = [
      // the seed stage and a stage drawn before any round finished: no model
      { index: 0, drawnByRoundIndex: null, createdAt: at(0), size: 30 },
      { index: 1, drawnByRoundIndex: null, createdAt: at(5), size: 10 },
      // round 0 drew stage 2 itself; stage 3 was drawn ahead after round 0, stage 4 after round 1
      { index: 2, drawnByRoundIndex: 0, createdAt: at(10), size: 10 },
      { index: 3, drawnByRoundIndex: null, createdAt: at(15), size: 10 },
      { index: 4, drawnByRoundIndex: null, createdAt: at(25), size: 10 },
    ];
    expect([...drawingRounds(stages, rounds)]).toEqual([
      [2, 0],
      [3, 0],
      [4, 1],
    ]);
  });

  it("takes the highest-indexed round finished before the stage when rounds finished out of order (a retried round)", () => {
    const rounds = [
      { index: 1, finishedAt: at(8) },
      { index: 0, finishedAt: at(12) },
    ];
    expect([...drawingRounds([{ index: 3, drawnByRoundIndex: null, createdAt: at(14), size: 10 }], rounds)]).toEqual([[3, 1]]);
  });
});
