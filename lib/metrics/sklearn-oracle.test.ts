/**
 * Every case of fixtures/metrics.json (scikit-learn 1.2.1 values, a copy of
 * shared/vectors/metrics.json) to 1e-9 absolute.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { contingency, entropy, mutualInfo, nmi, nmiFromTable } from "./index";

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
  });
});
