import { describe, expect, it } from "vitest";
import { rankAgreement } from "./rank-agreement";

const map = <V>(entries: [string, V][]) => new Map(entries);

describe("rank agreement between the estimates and ACE", () => {
  it("is 1 for the same order, -1 for the reverse, whatever the scales", () => {
    const estimates = map([["a", 0.9], ["b", 0.7], ["c", 0.4], ["d", 0.1]]);
    expect(rankAgreement(estimates, map([["a", 412], ["b", 300], ["c", 12], ["d", 3]]))).toEqual({ rho: 1, n: 4 });
    expect(rankAgreement(estimates, map([["a", -0.2], ["b", -0.1], ["c", 0.05], ["d", 0.3]]))).toEqual({ rho: -1, n: 4 });
  });

  it("uses only clusterings with both scores: one swap among 4 gives rho = 1 - 6 * 2 / (4 * 15) = 0.8", () => {
    const estimates = map([["a", 0.9], ["b", 0.7], ["c", 0.4], ["d", 0.1], ["new", 0.5]]);
    const ace = map<number | null>([["a", 0.3], ["b", 0.1], ["c", 0.2], ["d", 0.0], ["e", 0.5], ["new", null]]);
    const agreement = rankAgreement(estimates, ace)!;
    expect(agreement.n).toBe(4);
    expect(agreement.rho).toBeCloseTo(0.8, 12);
  });

  it("says nothing below 3 clusterings or when ACE gives every clustering the same score", () => {
    expect(rankAgreement(map([["a", 0.9], ["b", 0.7]]), map([["a", 1], ["b", 2]]))).toBeNull();
    expect(rankAgreement(map([["a", 0.9], ["b", 0.7], ["c", 0.1]]), map([["a", 1], ["b", 1], ["c", 1]]))).toBeNull();
  });
});
