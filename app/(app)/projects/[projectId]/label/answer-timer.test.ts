import { describe, expect, it } from "vitest";
import { AnswerTimer, IDLE_CAP_MS } from "./answer-timer";

describe("answer timer", () => {
  it("counts the time from shown to answered", () => {
    const timer = new AnswerTimer(1_000, true);
    timer.input(3_000);
    expect(timer.elapsed(4_500.4)).toBe(3_500);
  });

  it("caps every stretch without input at 60 s", () => {
    const timer = new AnswerTimer(0, true);
    timer.input(5_000);
    // away from the keyboard for ten minutes, then answers two seconds after coming back
    timer.input(605_000);
    expect(timer.elapsed(607_000)).toBe(5_000 + IDLE_CAP_MS + 2_000);
    // and an answer after a long idle stretch with no input at all counts the cap only
    expect(new AnswerTimer(0, true).elapsed(300_000)).toBe(IDLE_CAP_MS);
  });

  it("never counts hidden time, and ignores input while hidden", () => {
    const timer = new AnswerTimer(0, true);
    timer.visibility(4_000, false);
    timer.input(50_000);
    timer.visibility(90_000, true);
    expect(timer.elapsed(91_000)).toBe(5_000);
    // shown in a background tab: nothing counts until it is visible
    const background = new AnswerTimer(0, false);
    background.visibility(20_000, true);
    expect(background.elapsed(23_000)).toBe(3_000);
  });
});
