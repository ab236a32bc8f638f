/**
 * Every case of fixtures/metrics.json (scikit-learn 1.2.1 values, a copy of
 * shared/vectors/metrics.json) to 1e-9 absolute.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  ami,
  amiFromTable,
  ari,
  clusteringAccuracy,
  completeness,
  contingency,
  entropy,
  expectedMutualInfo,
  fowlkesMallows,
  homogeneity,
  metricsFromTable,
  mutualInfo,
  nmi,
  nmiFromTable,
  vMeasure,
} from "./index";

interface OracleCase {
  id: number;
  kind: string;
  labels_true: number[];
  labels_pred: number[];
  flags: string[];
  expected: Record<string, number>;
}

const oracle = JSON.parse(readFileSync(new URL("./fixtures/metrics.json", import.meta.url), "utf8")) as {
  cases: OracleCase[];
};
const TOL = 1e-9;

function close(actual: number, expected: number, what: string) {
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(TOL);
}

describe("scikit-learn oracle (fixtures/metrics.json)", () => {
  it("has all 200 cases", () => {
    expect(oracle.cases).toHaveLength(200);
  });

  it.each(oracle.cases.map((c) => [c.id, c.kind, c] as const))("case %i (%s)", (_id, _kind, c) => {
    const t = c.labels_true;
    const p = c.labels_pred;
    const e = c.expected;
    const table = contingency(t, p);
    close(entropy(t), e.entropy_true_nats, "H(true)");
    close(entropy(p), e.entropy_pred_nats, "H(pred)");
    close(mutualInfo(t, p), e.mutual_info_nats, "MI");
    close(nmi(t, p), e.nmi, "nmi");
    close(nmiFromTable(table, "geometric"), e.nmi_geometric, "nmi geometric");
    close(nmiFromTable(table, "min"), e.nmi_min, "nmi min");
    close(nmiFromTable(table, "max"), e.nmi_max, "nmi max");
    const emi = expectedMutualInfo(table.rowSums, table.colSums);
    const degenerate = c.flags.some((f) => f.startsWith("ami_degenerate_denominator"));
    if (degenerate) {
      // both sides all singletons: E[MI] = MI = log N exactly; sklearn's nine-lgamma sum carries
      // ~1e-9 of rounding at N = 5000 (8.517193192775895 vs log 5000 = 8.517193191416238)
      expect(emi).toBeCloseTo(Math.log(t.length), 12);
      expect(Math.abs(emi - e.expected_mutual_info_nats)).toBeLessThanOrEqual(1e-9 * emi);
    } else {
      close(emi, e.expected_mutual_info_nats, "E[MI]");
    }
    close(ari(t, p), e.ari, "ari");
    close(homogeneity(t, p), e.homogeneity, "homogeneity");
    close(completeness(t, p), e.completeness, "completeness");
    close(vMeasure(t, p), e.v_measure, "v_measure");
    close(fowlkesMallows(t, p), e.fowlkes_mallows, "fmi");
    close(clusteringAccuracy(t, p), e.hungarian_accuracy, "acc");
    const all = metricsFromTable(table);
    close(all.nmi, e.nmi, "metricsFromTable.nmi");
    close(all.ari, e.ari, "metricsFromTable.ari");
    close(all.acc, e.hungarian_accuracy, "metricsFromTable.acc");
    close(all.vMeasure, e.v_measure, "metricsFromTable.vMeasure");
    close(all.fmi, e.fowlkes_mallows, "metricsFromTable.fmi");
    if (degenerate) {
      // convention (ami.ts): mean entropy == E[MI]; 1.0 when both sides are the same partition
      expect(e.mutual_info_nats).toBeCloseTo(e.entropy_true_nats, 9);
      expect(e.mutual_info_nats).toBeCloseTo(e.entropy_pred_nats, 9);
      expect(ami(t, p)).toBe(1.0);
      expect(amiFromTable(table, "max")).toBe(1.0);
    } else {
      close(ami(t, p), e.ami, "ami");
      close(all.ami, e.ami, "metricsFromTable.ami");
    }
  });
});
