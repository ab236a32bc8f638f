/**
 * Properties every external metric must have, on seeded random labellings: invariance to
 * relabelling and to item order, symmetry where it holds, bounds; plus the degenerate inputs.
 */
import { describe, expect, it } from "vitest";
import {
  ami,
  apMetric,
  ari,
  clusteringAccuracy,
  completeness,
  contingency,
  entropy,
  f1Contingency,
  fowlkesMallows,
  homogeneity,
  metricsFromTable,
  mutualInfo,
  nmi,
  vMeasure,
  type Labels,
} from "./index";
import { createRandom, permutation, type RandomSource, type RandomStream } from "@/lib/random";

type Metric = (t: Labels, p: Labels) => number;
const METRICS: Record<string, Metric> = {
  nmi: (t, p) => nmi(t, p),
  nmiGeometric: (t, p) => nmi(t, p, "geometric"),
  nmiMin: (t, p) => nmi(t, p, "min"),
  nmiMax: (t, p) => nmi(t, p, "max"),
  ami: (t, p) => ami(t, p),
  amiMax: (t, p) => ami(t, p, "max"),
  ari,
  homogeneity,
  completeness,
  vMeasure: (t, p) => vMeasure(t, p),
  vMeasureBeta2: (t, p) => vMeasure(t, p, 2),
  fmi: fowlkesMallows,
  acc: clusteringAccuracy,
  mutualInfo,
  ap: (t, p) => apMetric(contingency(t, p)).ap,
  f1: (t, p) => f1Contingency(contingency(t, p)).f1,
};
const SYMMETRIC = ["nmi", "nmiGeometric", "nmiMin", "nmiMax", "ami", "amiMax", "ari", "vMeasure", "fmi", "acc", "mutualInfo", "f1"];

function randomLabels(n: number, k: number, random: RandomSource): number[] {
  return Array.from({ length: n }, () => random.int(k));
}

/** a noisy copy: keep each label with probability keep, else draw one of k uniformly */
function noisyCopy(t: number[], k: number, keep: number, random: RandomSource): number[] {
  return t.map((v) => (random.next() < keep ? v : random.int(k)));
}

function relabel(labels: number[], random: RandomStream): number[] {
  const k = Math.max(...labels) + 1;
  const perm = permutation(k, random);
  return labels.map((v) => perm[v] * 7 - 13);
}

const cases: [string, number[], number[]][] = [];
{
  const random = createRandom(2024);
  for (let c = 0; c < 12; c++) {
    const n = 20 + random.int(300);
    const kt = 1 + random.int(8);
    const kp = 1 + random.int(10);
    const t = randomLabels(n, kt, random);
    const p = c % 2 === 0 ? noisyCopy(t, kp, 0.7, random) : randomLabels(n, kp, random);
    cases.push([`n=${n} kt=${kt} kp=${kp}`, t, p]);
  }
}

describe("properties", () => {
  it.each(cases)("invariant to relabelling and item order (%s)", (_name, t, p) => {
    const random = createRandom(t.length);
    const order = permutation(t.length, random);
    const tr = relabel(t, createRandom(1));
    const pr = relabel(p, createRandom(2));
    const t2 = Array.from(order, (i) => tr[i]);
    const p2 = Array.from(order, (i) => pr[i]);
    for (const [name, metric] of Object.entries(METRICS)) {
      expect(metric(t2, p2), name).toBeCloseTo(metric(t, p), 12);
    }
  });

  it.each(cases)("symmetric where it holds (%s)", (_name, t, p) => {
    for (const name of SYMMETRIC) expect(METRICS[name](p, t), name).toBeCloseTo(METRICS[name](t, p), 12);
    expect(homogeneity(t, p)).toBeCloseTo(completeness(p, t), 12);
  });

  it.each(cases)("within bounds (%s)", (_name, t, p) => {
    for (const name of ["nmi", "nmiGeometric", "nmiMin", "nmiMax", "homogeneity", "completeness", "vMeasure", "fmi", "acc", "ap", "f1"]) {
      const v = METRICS[name](t, p);
      expect(v, name).toBeGreaterThanOrEqual(0);
      expect(v, name).toBeLessThanOrEqual(1 + 1e-12);
    }
    expect(ari(t, p)).toBeLessThanOrEqual(1);
    expect(ari(t, p)).toBeGreaterThanOrEqual(-1);
    expect(ami(t, p)).toBeLessThanOrEqual(1);
    const mi = mutualInfo(t, p);
    expect(mi).toBeLessThanOrEqual(Math.min(entropy(t), entropy(p)) + 1e-12);
    // ACC >= the share matched by any fixed matching, e.g. its largest cell
    const table = contingency(t, p);
    expect(clusteringAccuracy(t, p)).toBeGreaterThanOrEqual(Math.max(...table.cellValue) / t.length);
  });

  it.each(cases)("a labelling against a relabelled copy of itself scores 1 everywhere (%s)", (_name, t) => {
    if (new Set(t).size < 2) return;
    const copy = relabel(t, createRandom(5));
    const all = metricsFromTable(contingency(t, copy));
    for (const [key, v] of Object.entries(all)) expect(v, key).toBeCloseTo(1, 12);
  });

  it("AMI and ARI are near 0 for independent labellings and ordered by noise", () => {
    const random = createRandom(99);
    const t = randomLabels(5000, 6, random);
    const p = randomLabels(5000, 6, random);
    expect(Math.abs(ami(t, p))).toBeLessThan(0.005);
    expect(Math.abs(ari(t, p))).toBeLessThan(0.005);
    const mild = noisyCopy(t, 6, 0.8, random);
    const strong = noisyCopy(t, 6, 0.4, random);
    for (const name of Object.keys(METRICS)) {
      if (name === "mutualInfo") continue;
      expect(METRICS[name](t, mild), name).toBeGreaterThan(METRICS[name](t, strong));
    }
  });
});

describe("degenerate inputs", () => {
  const single = [4, 4, 4, 4, 4, 4];
  const two = [0, 0, 0, 1, 1, 1];
  const singletons = [0, 1, 2, 3, 4, 5];

  it("empty labellings follow sklearn (1.0, FMI 0.0) and our documented 1.0 for ACC and AP", () => {
    expect(nmi([], [])).toBe(1);
    expect(ami([], [])).toBe(1);
    expect(ari([], [])).toBe(1);
    expect(vMeasure([], [])).toBe(1);
    expect(homogeneity([], [])).toBe(1);
    expect(fowlkesMallows([], [])).toBe(0);
    expect(mutualInfo([], [])).toBe(0);
    expect(entropy([])).toBe(1);
    expect(clusteringAccuracy([], [])).toBe(1);
    expect(apMetric(contingency([], [])).ap).toBe(1);
  });

  it("both one cluster: a perfect match, 1.0 (sklearn)", () => {
    const all = metricsFromTable(contingency(single, [1, 1, 1, 1, 1, 1]));
    expect(all).toEqual({ nmi: 1, ami: 1, ari: 1, acc: 1, vMeasure: 1, fmi: 1, ap: 1 });
  });

  it("one side a single cluster: NMI = AMI = ARI = 0, homogeneity 0, completeness 1 (sklearn)", () => {
    for (const [t, p] of [
      [two, single],
      [single, two],
    ]) {
      expect(nmi(t, p)).toBe(0);
      expect(nmi(t, p, "min")).toBe(0);
      expect(ami(t, p)).toBe(0);
      expect(ari(t, p)).toBe(0);
    }
    expect(homogeneity(two, single)).toBe(0);
    expect(completeness(two, single)).toBe(1);
    expect(clusteringAccuracy(two, single)).toBe(0.5);
    // all truth classes share one cluster: associativity 0
    expect(apMetric(contingency(two, single))).toEqual({ associativity: 0, peakiness: 1, ap: 0 });
  });

  it("all singletons: homogeneous, FMI 0 (no within-cluster pairs), ARI 0", () => {
    expect(homogeneity(two, singletons)).toBeCloseTo(1, 12);
    expect(fowlkesMallows(two, singletons)).toBe(0);
    expect(ari(two, singletons)).toBe(0);
    expect(Math.abs(ami(two, singletons))).toBeLessThan(1e-12);
    expect(clusteringAccuracy(two, singletons)).toBeCloseTo(2 / 6, 15);
    // both all singletons: AMI's denominator is 0; the convention gives 1 (same partition)
    expect(ami(singletons, [5, 4, 3, 2, 1, 0])).toBe(1);
    expect(ari(singletons, [5, 4, 3, 2, 1, 0])).toBe(1);
  });

  it("rejects labellings of different lengths", () => {
    expect(() => nmi([0, 1], [0])).toThrow(RangeError);
  });
});
