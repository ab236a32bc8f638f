import { describe, expect, it } from "vitest";
import { holmAdjust, holmReject } from "./holm";
import { averageRanks, positiveCorrelationPValue, spearman } from "./spearman";
import { regularizedIncompleteBeta, studentTCdf } from "./student-t";

describe("Student t distribution", () => {
  it.each([
    // df 1 is the Cauchy distribution: F(t) = 1/2 + atan(t) / pi
    [1, 1, 0.75],
    [-1, 1, 0.25],
    [12.706204736174707, 1, 0.975],
    // df 2: F(t) = 1/2 + t / (2 sqrt(2 + t^2))
    [1, 2, 0.5 + 1 / (2 * Math.sqrt(3))],
    // textbook quantiles
    [2.015048372669157, 5, 0.95],
    [2.2281388519649385, 10, 0.975],
    [2.4572615424005915, 30, 0.99],
    [-3.1824463052837078, 3, 0.025],
    [0, 7, 0.5],
  ])("F(%d; %d) = %d", (t, nu, p) => {
    expect(studentTCdf(t, nu)).toBeCloseTo(p, 9);
  });

  it("df 3 matches the closed form 1/2 + (1/pi)(u / (1 + u^2) + atan u), u = t / sqrt 3", () => {
    for (const t of [0.3, 1.7, 4.2, 9]) {
      const u = t / Math.sqrt(3);
      expect(studentTCdf(t, 3)).toBeCloseTo(0.5 + (u / (1 + u * u) + Math.atan(u)) / Math.PI, 13);
    }
  });

  it("regularized incomplete beta: closed forms", () => {
    expect(regularizedIncompleteBeta(0.3, 2.5, 1)).toBeCloseTo(0.3 ** 2.5, 14);
    expect(regularizedIncompleteBeta(0.3, 1, 4)).toBeCloseTo(1 - 0.7 ** 4, 14);
    expect(regularizedIncompleteBeta(0.5, 7.5, 7.5)).toBeCloseTo(0.5, 14);
    expect(regularizedIncompleteBeta(0, 2, 3)).toBe(0);
    expect(regularizedIncompleteBeta(1, 2, 3)).toBe(1);
  });
});

describe("Spearman correlation", () => {
  it("gives ties their average rank", () => {
    expect(Array.from(averageRanks([10, 20, 20, 5, 20]))).toEqual([2, 4, 4, 1, 4]);
  });

  it("equals Pearson's correlation of the ranks, ties included (scipy.stats.spearmanr)", () => {
    // ranks (1..5) against (1, 2, 3.5, 5, 3.5): 8 / sqrt(10 * 9.5)
    expect(spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7])).toBeCloseTo(8 / Math.sqrt(95), 14);
    expect(spearman([1, 2, 3], [30, 20, 10])).toBeCloseTo(-1, 14);
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNaN();
  });

  it("tests a positive correlation one-sided with t = r sqrt((n-2)/(1-r^2)) on n - 2 df", () => {
    const r = 8 / Math.sqrt(95);
    const t = r * Math.sqrt(3 / (1 - r * r));
    const u = t / Math.sqrt(3);
    const upper = 0.5 - (u / (1 + u * u) + Math.atan(u)) / Math.PI;
    expect(positiveCorrelationPValue(r, 5)).toBeCloseTo(upper, 13);
    expect(positiveCorrelationPValue(r, 5)).toBeCloseTo(0.04429, 4); // scipy: two-sided 0.0886 / 2
    expect(positiveCorrelationPValue(1, 10)).toBe(0);
    expect(positiveCorrelationPValue(-0.5, 10)).toBeGreaterThan(0.9);
  });
});

describe("Holm correction", () => {
  it("adjusts step-down and keeps the order monotone", () => {
    // sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 -> running max 0.06
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((p, i) => expect(adjusted[i]).toBeCloseTo(p, 15));
    expect(holmReject([0.01, 0.04, 0.03, 0.005], 0.05)).toEqual([true, false, false, true]);
    expect(holmAdjust([0.6, 0.9])).toEqual([1, 1]);
  });
});
