import { describe, expect, it } from "vitest";
import { answerDifferent, askedClass, chainStep, showList, startChain, stepBack } from "./verify-chain";

describe("the chain of same-class questions", () => {
  it("asks the classes in order, and after the last 'different' prompts a new class (open) or shows the list (fixed)", () => {
    let open = startChain("t", [2, 0, 1], "open");
    expect(askedClass(open)).toBe(2);
    open = answerDifferent(open, "open");
    expect([askedClass(open), open.position]).toEqual([0, 1]);
    open = answerDifferent(answerDifferent(open, "open"), "open");
    expect([chainStep(open), askedClass(open), open.position]).toEqual(["newClass", null, 3]);
    expect(answerDifferent(open, "open")).toBe(open);

    let fixed = startChain("t", [1, 0], "fixed");
    fixed = answerDifferent(answerDifferent(fixed, "fixed"), "fixed");
    expect([chainStep(fixed), fixed.position]).toEqual(["pick", 2]);
  });

  it("starts at the list (fixed) or the new-class prompt (open) when there is no class to ask", () => {
    expect(chainStep(startChain("t", [], "fixed"))).toBe("pick");
    expect(chainStep(startChain("t", [], "open"))).toBe("newClass");
  });

  it("steps back from the list to the question it interrupted, then one question at a time, then hands undo to the last label", () => {
    const chain = answerDifferent(startChain("t", [3, 1, 2], "fixed"), "fixed");
    const listed = showList(chain);
    expect(chainStep(listed)).toBe("pick");
    const back = stepBack(listed)!;
    expect([chainStep(back), askedClass(back)]).toEqual(["ask", 1]);
    const first = stepBack(back)!;
    expect(askedClass(first)).toBe(3);
    expect(stepBack(first)).toBeNull();

    const exhausted = answerDifferent(answerDifferent(answerDifferent(startChain("t", [3, 1, 2], "fixed"), "fixed"), "fixed"), "fixed");
    expect(chainStep(exhausted)).toBe("pick");
    expect(askedClass(stepBack(exhausted)!)).toBe(2);
    const prompted = answerDifferent(answerDifferent(startChain("t", [3, 1], "open"), "open"), "open");
    expect(askedClass(stepBack(prompted)!)).toBe(1);
  });
});
