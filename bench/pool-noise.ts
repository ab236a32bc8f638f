/**
 * The pool noise's cost (lib/cereal/method/pool-noise.ts, the guarded estimator's interval floor) per clustering and round:
 * the one-item changes of every metric by one evaluation per cell (metricsFromTable on the table with the item added, as
 * before the closed forms) against oneItemChanges (closed forms for NMI, V-measure, ARI, FMI and AMI; evaluations for
 * accuracy and AP up to POOL_NOISE_EVALUATED_MAX_CELLS cells), on random soft-like tables of C x K cells holding N items,
 * after a warm-up (the median of five calls each; on idle cores: run niced beside other work, it times the scheduler), and the largest difference
 * between the two where both run.
 *   node --import tsx bench/pool-noise.ts [--sizes 10x10,40x20,100x100] [--n 10000]
 */
import { parseArgs } from "node:util";
import { asTable, denseTable, METRIC_KEYS, metricsFromTable } from "@/lib/metrics";
import { oneItemChanges, POOL_NOISE_EVALUATED_MAX_CELLS } from "@/lib/cereal/method/pool-noise";
import { Random } from "@/lib/random/named-streams";

const { values } = parseArgs({ options: { sizes: { type: "string", default: "10x10,40x20,100x100" }, n: { type: "string", default: "10000" } } });
const N = Number(values.n);

/** every metric's one-item changes by evaluating the table with the item added (the form before the closed forms) */
function evaluatedEverywhere(dense: number[][]): Record<string, Float64Array> {
  const C = dense.length;
  const K = dense[0].length;
  const base = metricsFromTable(dense);
  const g = Object.fromEntries(METRIC_KEYS.map((k) => [k, new Float64Array(C * K)]));
  for (let y = 0; y < C; y++)
    for (let c = 0; c < K; c++) {
      dense[y][c] += 1;
      const moved = metricsFromTable(dense);
      dense[y][c] -= 1;
      for (const k of METRIC_KEYS) g[k][y * K + c] = moved[k] - base[k];
    }
  return g;
}

/** the median of five timed calls, in seconds */
function seconds(f: () => unknown): number {
  const times = Array.from({ length: 5 }, () => {
    const t0 = performance.now();
    f();
    return (performance.now() - t0) / 1000;
  }).sort((a, b) => a - b);
  return times[2];
}

const random = new Random(1);
console.log(`| table | N | every metric evaluated per cell (s) | closed forms + evaluated acc, AP (s) | ratio | largest difference |`);
console.log(`|---|---|---|---|---|---|`);
for (const size of values.sizes!.split(",")) {
  const [C, K] = size.split("x").map(Number);
  // mass concentrated on a cell or two per column, as a soft table of a fair surrogate
  const raw = Array.from({ length: C }, () => Array.from({ length: K }, () => random.next() ** 8));
  const sum = raw.flat().reduce((a, b) => a + b, 0);
  const table = asTable(raw.map((row) => row.map((v) => (v * N) / sum)));
  const evaluatedFits = C * K <= POOL_NOISE_EVALUATED_MAX_CELLS;
  // warm-up on the same table, then one timed call each
  oneItemChanges(table);
  const fast = seconds(() => oneItemChanges(table));
  let slow = Number.NaN;
  let diff = Number.NaN;
  if (evaluatedFits) {
    evaluatedEverywhere(denseTable(table));
    let slowG: Record<string, Float64Array> = {};
    slow = seconds(() => (slowG = evaluatedEverywhere(denseTable(table))));
    const fastG = oneItemChanges(table);
    diff = Math.max(...METRIC_KEYS.map((k) => Math.max(...Array.from(slowG[k], (v, i) => Math.abs(v - fastG[k]![i])))));
  }
  console.log(`| ${C} x ${K} | ${N} | ${evaluatedFits ? slow.toFixed(3) : "(not run: over the cap)"} | ${fast.toFixed(3)} | ${evaluatedFits ? `${(slow / fast).toFixed(1)}x` : "-"} | ${evaluatedFits ? diff.toExponential(1) : "-"} |`);
}
