import { describe, expect, it } from "vitest";
import { acquireBatch } from "./acquire";
import {
  clusterMajorityClass,
  jointTable,
  pointwiseMi,
  scoreBald,
  scoreCrossEntropy,
  scoreHardNmi,
  scoreMaxEntropy,
  scoreResidual,
  scoreSoftNmi,
  type JointTable,
} from "./acquisition";
import { Random } from "../../random/named-streams";

/*
 * The 3x3 table of the hand computations (rows: reference classes y, columns: clusters c), N = 15:
 *        c0 c1 c2
 *   y0    4  1  0
 *   y1    1  3  1
 *   y2    0  1  4
 * All marginals are 5, so p(y) = p(c) = 1/3, H_Y = H_C = ln 3 and I[c; y] = (n/15) ln(9n/15):
 *   n = 4: (4/15) ln 2.4 = 0.233458329961040;  n = 3: (3/15) ln 1.8 = 0.117557332980424;
 *   n = 1: (1/15) ln 0.6 = -0.034055041584399; n = 0: 0.
 * The item scored: pi(.|x) = (0.7, 0.2, 0.1).
 */
const counts = [4, 1, 0, 1, 3, 1, 0, 1, 4];
const table: JointTable = { classes: 3, clusters: 3, counts: Float64Array.from(counts) };
const pi = Float32Array.from([0.7, 0.2, 0.1]);
const I4 = (4 / 15) * Math.log(2.4);
const I3 = (3 / 15) * Math.log(1.8);
const I1 = (1 / 15) * Math.log(0.6);

describe("pointwise MI of the 3x3 table", () => {
  it("matches the hand values and ln 3 as (H_Y + H_C) / 2", () => {
    const { terms, normaliser } = pointwiseMi(table);
    expect(normaliser).toBeCloseTo(Math.log(3), 12);
    expect(terms[0]).toBeCloseTo(0.23345832996104, 12);
    expect(terms[4]).toBeCloseTo(0.117557332980424, 12);
    expect(terms[1]).toBeCloseTo(-0.034055041584399, 12);
    expect(terms[2]).toBe(0);
    // the terms sum to the mutual information: 2*I4 + I3 + 4*I1
    expect(terms.reduce((a, b) => a + b, 0)).toBeCloseTo(2 * I4 + I3 + 4 * I1, 12);
  });

  it("counts a joint table from class and cluster vectors", () => {
    const classes = Int32Array.from([0, 0, 1, 2, 2]);
    const clusters = Int32Array.from([0, 1, 1, 2, 2]);
    expect(Array.from(jointTable(classes, clusters, 3, 3).counts)).toEqual([1, 1, 0, 0, 1, 0, 0, 0, 2]);
  });
});

describe("acquisition scores on the 3x3 table", () => {
  it("MaxEntropy: -(0.7 ln 0.7 + 0.2 ln 0.2 + 0.1 ln 0.1)", () => {
    expect(scoreMaxEntropy(pi, 3)[0]).toBeCloseTo(0.8018185525433372, 6);
  });

  it("BALD: ln 2 when two passes disagree completely, 0 when they agree", () => {
    // 2 passes x 2 rows x 3 classes: row 0 flips between classes, row 1 is stable
    const mc = Float32Array.from([1, 0, 0, 0.7, 0.2, 0.1, 0, 1, 0, 0.7, 0.2, 0.1]);
    const s = scoreBald(mc, 2, 3);
    expect(s[0]).toBeCloseTo(Math.log(2), 6);
    expect(s[1]).toBeCloseTo(0, 6);
  });

  it("CrossEntropy: -ln pi(class the cluster maps to)", () => {
    expect(Array.from(clusterMajorityClass(table))).toEqual([0, 1, 2]);
    const s = scoreCrossEntropy(Float32Array.from([...pi, ...pi]), 3, Int32Array.from([0, 1]), table);
    expect(s[0]).toBeCloseTo(-Math.log(0.7), 6); // 0.356675
    expect(s[1]).toBeCloseTo(-Math.log(0.2), 6); // 1.609438
  });

  it("Hard NMI: 1 - sum_y pi(y|x) I[c(x); y] / ln 3", () => {
    const s = scoreHardNmi(Float32Array.from([...pi, ...pi]), 3, Int32Array.from([0, 1]), table);
    // cluster c0: 1 - (0.7 I4 + 0.2 I1 + 0.1 * 0) / ln 3 = 0.857447596143575
    expect(s[0]).toBeCloseTo(0.8574475961435747, 6);
    // cluster c1: 1 - (0.7 I1 + 0.2 I3 + 0.1 I1) / ln 3 = 1.003397528600340
    expect(s[1]).toBeCloseTo(1.0033975286003398, 6);
  });

  it("Soft NMI: f(.|x) = (0.5, 0.5, 0) averages the c0 and c1 sums", () => {
    const s = scoreSoftNmi(pi, 3, Float32Array.from([0.5, 0.5, 0]), table);
    expect(s[0]).toBeCloseTo(0.9304225623719573, 6);
    // a one-hot f reduces Soft NMI to Hard NMI
    expect(scoreSoftNmi(pi, 3, Float32Array.from([1, 0, 0]), table)[0]).toBeCloseTo(0.8574475961435747, 6);
  });

  it("a degenerate table (one class, one cluster) scores every item 1", () => {
    const flat: JointTable = { classes: 1, clusters: 1, counts: Float64Array.from([5]) };
    expect(scoreHardNmi(Float32Array.from([1]), 1, Int32Array.from([0]), flat)[0]).toBe(1);
  });
});

describe("acquireBatch", () => {
  // 6 items: classes (labels + pseudo-labels) and two clusterings that disagree on who is worth labelling
  const currentClasses = Int32Array.from([0, 0, 0, 1, 1, 1]);
  const a = { name: "a", k: 2, assignments: Int32Array.from([0, 0, 0, 1, 1, 1]) };
  const b = { name: "b", k: 2, assignments: Int32Array.from([0, 0, 1, 1, 1, 1]) };
  const pool = Int32Array.from([1, 2, 4, 5]);
  const proba = Float32Array.from([0.9, 0.1, 0.6, 0.4, 0.5, 0.5, 0.1, 0.9]);

  it("MaxEntropy with the top-score design takes the most uncertain rows, q = 1", () => {
    const { design, draws } = acquireBatch(
      { numClasses: 2, clusterings: [a], pool, proba, currentClasses },
      { acquisition: "maxentropy", n: 2 },
      new Random(1),
    );
    expect(design).toBe("top-score");
    expect(draws.map((d) => d.row)).toEqual([4, 2]);
    expect(draws.every((d) => d.q === 1)).toBe(true);
  });

  it("Hard NMI averages the clusterings' scores; per-clustering mode splits the batch", () => {
    const input = { numClasses: 2, clusterings: [a, b], pool, proba, currentClasses };
    const mean = acquireBatch(input, { acquisition: "hardnmi", n: 2 }, new Random(1));
    const perClustering = acquireBatch(input, { acquisition: "hardnmi", n: 2, scoreMode: "per-clustering" }, new Random(1));
    expect(mean.draws).toHaveLength(2);
    expect(perClustering.draws).toHaveLength(2);
    expect(new Set(perClustering.draws.map((d) => d.row)).size).toBe(2);
    // row 2 sits in b's mixed cluster: it is b's best (highest Hard NMI score)
    expect(perClustering.draws[1].row).toBe(2);
  });

  it("CrossEntropy is drawn proportionally with q < 1", () => {
    const { design, draws } = acquireBatch(
      { numClasses: 2, clusterings: [a], pool, proba, currentClasses },
      { acquisition: "crossentropy", n: 2 },
      new Random(3),
    );
    expect(design).toBe("proportional");
    expect(draws).toHaveLength(2);
    expect(draws.every((d) => d.q > 0 && d.q < 1)).toBe(true);
  });
});

describe("residual s.d. (active inference)", () => {
  it("is sqrt(1 - sum pi^2): 0 for a sure prediction, sqrt(1 - 1/C) for a uniform one", () => {
    const scores = scoreResidual(Float32Array.from([1, 0, 0, 1 / 3, 1 / 3, 1 / 3, 0.7, 0.2, 0.1]), 3);
    expect(scores[0]).toBe(0);
    expect(scores[1]).toBeCloseTo(Math.sqrt(2 / 3), 6);
    expect(scores[2]).toBeCloseTo(Math.sqrt(1 - 0.49 - 0.04 - 0.01), 6);
  });
});
