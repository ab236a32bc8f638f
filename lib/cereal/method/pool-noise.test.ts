import { describe, expect, it } from "vitest";
import { asTable, contingency, denseTable, METRIC_KEYS, metricsFromTable } from "@/lib/metrics";
import { Random } from "../../random/named-streams";
import type { EstimatorInput } from "./estimators";
import { softTable } from "./estimators-soft";
import { CLOSED_FORM_METRICS, EVALUATED_METRICS, oneItemChanges, poolNoiseSe } from "./pool-noise";

/** N items in C classes and K clusters, the first m labeled; pi sharp on most items and unsure on a share, the cluster following the class */
function problem(sharp: number) {
  const N = 900;
  const C = 4;
  const K = 3;
  const m = 100;
  const random = new Random(7);
  const classOf = new Int32Array(N);
  const assignments = new Int32Array(N);
  for (let i = 0; i < N; i++) {
    classOf[i] = random.int(C);
    assignments[i] = random.next() < 0.7 ? classOf[i] % K : random.int(K);
  }
  const unlabeled = Int32Array.from({ length: N - m }, (_, i) => m + i);
  const proba = new Float32Array((N - m) * C);
  for (let i = 0; i < N - m; i++) {
    const o = i * C;
    if (random.next() < sharp) proba[o + classOf[m + i]] = 1 - 0.001 * (C - 1);
    else for (let y = 0; y < C; y++) proba[o + y] = 0.2 + random.next();
    let s = 0;
    for (let y = 0; y < C; y++) s += proba[o + y] || (proba[o + y] = 0.001);
    for (let y = 0; y < C; y++) proba[o + y] /= s;
  }
  const input: EstimatorInput = {
    n: N,
    numClasses: C,
    labeled: { rows: Int32Array.from({ length: m }, (_, i) => i), labels: classOf.slice(0, m) },
    unlabeled,
    proba,
    draws: [],
  };
  return { input, clustering: { name: "c", assignments, k: K }, classOf };
}

describe("poolNoiseSe", () => {
  it("is the spread of the true metrics when the unlabeled items' classes are drawn from pi (delta method within 15%)", () => {
    const { input, clustering, classOf } = problem(0.6);
    const se = poolNoiseSe(input, clustering, softTable(input, clustering));
    const random = new Random(11);
    const R = 600;
    const values = Object.fromEntries(METRIC_KEYS.map((k) => [k, [] as number[]]));
    const truth = classOf.slice();
    const C = input.numClasses;
    for (let r = 0; r < R; r++) {
      for (let i = 0; i < input.unlabeled.length; i++) truth[input.unlabeled[i]] = random.categorical(input.proba!, i * C, C);
      const metrics = metricsFromTable(contingency(truth, clustering.assignments, { rows: C, cols: clustering.k }));
      for (const k of METRIC_KEYS) values[k].push(metrics[k]);
    }
    for (const k of ["nmi", "ami", "ari", "vMeasure", "fmi"] as const) {
      const v = values[k];
      const mean = v.reduce((a, x) => a + x, 0) / R;
      const sd = Math.sqrt(v.reduce((a, x) => a + (x - mean) ** 2, 0) / (R - 1));
      expect(se[k], k).toBeGreaterThan(0.85 * sd);
      expect(se[k], k).toBeLessThan(1.15 * sd);
    }
  });

  it("shrinks as pi grows sure, and is 0 where pi reads every unlabeled item exactly", () => {
    const loose = problem(0.6);
    const sure = problem(0.99);
    const seLoose = poolNoiseSe(loose.input, loose.clustering, softTable(loose.input, loose.clustering));
    const seSure = poolNoiseSe(sure.input, sure.clustering, softTable(sure.input, sure.clustering));
    expect(seSure.nmi).toBeLessThan(seLoose.nmi! / 2);
    const exact = new Float32Array(sure.input.proba!.length);
    for (let i = 0; i < sure.input.unlabeled.length; i++) exact[i * 4 + sure.classOf[sure.input.unlabeled[i]]] = 1;
    const input = { ...sure.input, proba: exact };
    expect(poolNoiseSe(input, sure.clustering, softTable(input, sure.clustering)).nmi).toBe(0);
  });

  it("reads each metric's one-item changes as evaluating it on the table with the item added, the closed forms at any size", () => {
    const random = new Random(3);
    // a soft table (real counts) and a table of counts with an empty class row and an empty cluster column
    const soft = Array.from({ length: 5 }, () => Array.from({ length: 4 }, () => 30 * random.next() ** 3));
    const counts = [[40, 2, 0, 0], [0, 0, 0, 0], [3, 25, 1, 0], [0, 4, 30, 0]];
    for (const dense of [soft, counts]) {
      const table = asTable(dense);
      const g = oneItemChanges(table);
      const base = metricsFromTable(dense);
      for (let y = 0; y < dense.length; y++)
        for (let c = 0; c < dense[0].length; c++) {
          const moved = denseTable(table);
          moved[y][c] += 1;
          const metrics = metricsFromTable(moved);
          for (const k of METRIC_KEYS) expect(g[k]![y * dense[0].length + c], `${k} at (${y}, ${c})`).toBeCloseTo(metrics[k] - base[k], 12);
        }
      // over maxCells cells the evaluated metrics are left out, the closed forms kept as they were
      const large = oneItemChanges(table, dense.length * dense[0].length - 1);
      expect(Object.keys(large).sort()).toEqual([...CLOSED_FORM_METRICS].sort());
      for (const k of CLOSED_FORM_METRICS) expect(large[k]).toEqual(g[k]);
    }
    const { input, clustering } = problem(0.6);
    const table = softTable(input, clustering);
    const whole = poolNoiseSe(input, clustering, table);
    const partial = poolNoiseSe(input, clustering, table, 11);
    for (const k of CLOSED_FORM_METRICS) expect(partial[k]).toBe(whole[k]);
    for (const k of EVALUATED_METRICS) {
      expect(whole[k]).toBeGreaterThan(0);
      expect(partial[k]).toBeUndefined();
    }
  });

  it("needs the surrogate's probabilities", () => {
    const { input, clustering } = problem(0.6);
    expect(() => poolNoiseSe({ ...input, proba: null }, clustering, softTable(input, clustering))).toThrow(/no surrogate probabilities/);
  });
});
