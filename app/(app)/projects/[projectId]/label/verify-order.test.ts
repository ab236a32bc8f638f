import { describe, expect, it } from "vitest";
import { countsByCluster, verifyOrder } from "./verify-order";

describe("verifyOrder", () => {
  const counts = countsByCluster([
    [0, 2, 5],
    [0, 1, 3],
    [1, 0, 4],
    [0, 1, 4],
  ]);

  it("sums the rows of a cluster and class", () => {
    expect(counts.get(0)).toEqual(new Map([[2, 5], [1, 7]]));
    expect(counts.get(1)).toEqual(new Map([[0, 4]]));
  });

  it("asks the suggested class first, then the classes most labeled in the item's cluster, then the rest in the project's order", () => {
    expect(verifyOrder([0, 1, 2, 3], { suggestedClass: 3, cluster: 0 }, counts)).toEqual([3, 1, 2, 0]);
    expect(verifyOrder([0, 1, 2, 3], { suggestedClass: 2, cluster: 0 }, counts)).toEqual([2, 1, 0, 3]);
    expect(verifyOrder([0, 1, 2, 3], { suggestedClass: 0, cluster: 0 }, counts)).toEqual([0, 1, 2, 3]);
  });

  it("orders by the cluster alone before any round, and keeps the project's order without a hint", () => {
    expect(verifyOrder([0, 1, 2, 3], { suggestedClass: null, cluster: 0 }, counts)).toEqual([1, 2, 0, 3]);
    expect(verifyOrder([0, 1, 2, 3], { suggestedClass: null, cluster: 1 }, counts)).toEqual([0, 1, 2, 3]);
    expect(verifyOrder([0, 1, 2, 3], null, counts)).toEqual([0, 1, 2, 3]);
    expect(verifyOrder([0, 1, 2, 3], { suggestedClass: 1, cluster: null }, counts)).toEqual([1, 0, 2, 3]);
  });

  it("ignores a suggestion that is not a class of the project (a class removed since the round) and asks nothing without classes", () => {
    expect(verifyOrder([0, 1], { suggestedClass: 5, cluster: 1 }, counts)).toEqual([0, 1]);
    expect(verifyOrder([], { suggestedClass: 0, cluster: 0 }, counts)).toEqual([]);
  });
});
