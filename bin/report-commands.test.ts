import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { createKnnSurrogateFactory } from "@/lib/cereal/fakes/knn-surrogate";
import { METRIC_KEYS } from "@/lib/metrics";
import { roundEstimate } from "@/lib/report/interval-rounding";
import { runOneJob } from "@/lib/server/jobs/worker-loop";
import { DIGITS, digitsProject, fastWorkerDeps, labelAll } from "@/lib/server/labeling/labeling-test-fixture";
import { estimateHistory } from "@/lib/server/project-data/estimate-history";
import { CommandError } from "./project-commands";
import { recompute, runReport } from "./report-commands";

/**
 * The recomputation test of issue #26: a digits project after three rounds (k-NN surrogate, the
 * guarded estimator, so out-of-sample records matter), its report written by `cereal report`,
 * then every estimate and ranking table recomputed offline from the report's files and the bundle.
 */
let projectId = "";
let dir = "";

beforeAll(async () => {
  const fixture = await digitsProject({ design: "proportional", estimator: "guarded" });
  projectId = fixture.projectId;
  for (const batch of [20, 10, 10]) {
    expect(await labelAll(fixture.annotators[0], projectId, fixture.truth, batch)).toHaveLength(batch);
    expect(await runOneJob("report-test", { deps: fastWorkerDeps })).toBe(true);
  }
  dir = await mkdtemp(path.join(os.tmpdir(), "cereal-report-"));
  await runReport([projectId, "--out", dir, "--metrics", "nmi,ari", "--no-print"], () => {});
}, 240_000);

describe("cereal recompute", () => {
  it("recomputes every round's estimates, intervals and P(best) and the ranking tables from the report's files alone", async () => {
    const history = await estimateHistory(projectId);
    expect(history.map((r) => r.nLabels)).toEqual([20, 30, 40]);
    const outcome = await recompute(dir, DIGITS, createKnnSurrogateFactory());
    expect(outcome.differences).toEqual([]);
    const clusterings = new Set(history[0].estimates.map((e) => e.clustering)).size;
    expect(outcome.compared).toBe(3 * clusterings * METRIC_KEYS.length);
    expect(outcome.tables.nmi).toBe(await readFile(path.join(dir, "tables", "ranking-nmi.csv"), "utf8"));
    expect(outcome.tables.ari).toBe(await readFile(path.join(dir, "tables", "ranking-ari.csv"), "utf8"));
    // and the table holds the dashboard's numbers: the latest round's NMI, rounded to its interval
    const table = parse(outcome.tables.nmi, { columns: true }) as Record<string, string>[];
    const latest = history[2].estimates.filter((e) => e.metric === "nmi").sort((a, b) => b.value - a.value);
    expect(table.map((r) => r.clustering)).toEqual(latest.map((e) => e.clustering));
    expect(table.map((r) => Number(r.estimate))).toEqual(latest.map((e) => Number(roundEstimate(e.value, e.lo, e.hi).estimate)));
    expect(table.every((r) => r.labels === "40")).toBe(true);
  }, 240_000);

  it("finds a label that differs from the one the rounds used", async () => {
    const file = path.join(dir, "reproduce", "labeled-subset.csv");
    const original = await readFile(file, "utf8");
    const rows = original.trimEnd().split("\n");
    const cells = rows[1].split(",");
    cells[2] = String((Number(cells[2]) + 1) % 10);
    await writeFile(file, [rows[0], cells.join(","), ...rows.slice(2)].join("\n") + "\n");
    try {
      const outcome = await recompute(dir, DIGITS, createKnnSurrogateFactory());
      expect(outcome.differences.length).toBeGreaterThan(0);
      expect(outcome.differences.some((d) => d.startsWith("round 0 "))).toBe(true);
    } finally {
      await writeFile(file, original);
    }
  }, 240_000);

  it("refuses an unknown project and an unknown metric", async () => {
    await expect(runReport(["no-such-project", "--out", dir], () => {})).rejects.toThrow(CommandError);
    await expect(runReport([projectId, "--out", dir, "--metrics", "nmi,xyz"], () => {})).rejects.toThrow(/metrics are a comma-separated list/);
  });
});
