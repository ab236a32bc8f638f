/**
 * npm run bench:metrics — times lib/metrics' external metrics at N = 1e5 and 1e6 with 10 x 10
 * and 100 x 100 classes, and silhouette at N = 1e4, D = 128. Where Debian's python3-sklearn is
 * installed (/usr/bin/python3 -c "import sklearn"), scikit-learn is timed on the same arrays in
 * the same run and the ratios are printed. A benchmark, not a test: it prints, never asserts.
 *
 * Each label-form metric is timed as a caller uses it (it builds its own contingency table, as
 * each sklearn function does). "table path" is contingency() once + metricsFromTable().
 * Flags: --no-sklearn, --quick (N = 1e5 only, silhouette N = 2000).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ami, apMetric, ari, clusteringAccuracy, completeness, contingency, fowlkesMallows, homogeneity, metricsFromTable, nmi, silhouette, vMeasure } from "@/lib/metrics";
import { createRandom } from "@/lib/random";

const args = new Set(process.argv.slice(2));
const quick = args.has("--quick");
const PYTHON = "/usr/bin/python3";

function hasSklearn(): boolean {
  if (args.has("--no-sklearn")) return false;
  try {
    execFileSync(PYTHON, ["-c", "import sklearn"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** the best of `repeats` runs after one untimed warm-up run (JIT), in milliseconds */
function time(fn: () => unknown, repeats: number): number {
  fn();
  let best = Infinity;
  for (let r = 0; r < repeats; r++) {
    const start = performance.now();
    fn();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

type Labels = Int32Array;
const METRICS: [string, (t: Labels, p: Labels) => unknown][] = [
  ["nmi", (t, p) => nmi(t, p)],
  ["ami", (t, p) => ami(t, p)],
  ["ari", (t, p) => ari(t, p)],
  ["homogeneity", (t, p) => homogeneity(t, p)],
  ["completeness", (t, p) => completeness(t, p)],
  ["vMeasure", (t, p) => vMeasure(t, p)],
  ["fmi", (t, p) => fowlkesMallows(t, p)],
  ["acc", (t, p) => clusteringAccuracy(t, p)],
];
const SKLEARN_NAMES = METRICS.map(([name]) => name);

interface Config {
  name: string;
  n: number;
  k: number;
  t: Int32Array;
  p: Int32Array;
}

/** truth uniform over k classes; clusters a noisy copy (70% kept, else uniform) */
function makeConfig(n: number, k: number, seed: number): Config {
  const random = createRandom(seed);
  const t = new Int32Array(n);
  const p = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    t[i] = random.int(k);
    p[i] = random.next() < 0.7 ? t[i] : random.int(k);
  }
  return { name: `N=${n.toExponential(0)} ${k}x${k}`, n, k, t, p };
}

const PY_SCRIPT = String.raw`
import json, sys, time
import numpy as np
from scipy.optimize import linear_sum_assignment
from sklearn import metrics
from sklearn.metrics.cluster import contingency_matrix

def acc(t, p):
    c = contingency_matrix(t, p)
    r, k = linear_sum_assignment(c, maximize=True)
    return c[r, k].sum() / len(t)

FUNCS = {
    "nmi": metrics.normalized_mutual_info_score,
    "ami": metrics.adjusted_mutual_info_score,
    "ari": metrics.adjusted_rand_score,
    "homogeneity": metrics.homogeneity_score,
    "completeness": metrics.completeness_score,
    "vMeasure": metrics.v_measure_score,
    "fmi": metrics.fowlkes_mallows_score,
    "acc": acc,
}

def best(fn, repeats):
    out, value = float("inf"), None
    for _ in range(repeats):
        s = time.perf_counter(); value = fn(); out = min(out, time.perf_counter() - s)
    return out * 1000, value

job = json.load(open(sys.argv[1]))
result = {"configs": {}, "silhouette": {}}
for cfg in job["configs"]:
    t = np.fromfile(cfg["t"], dtype="<i4"); p = np.fromfile(cfg["p"], dtype="<i4")
    result["configs"][cfg["name"]] = {}
    for name in job["metrics"]:
        ms, value = best(lambda: FUNCS[name](t, p), cfg["repeats"])
        result["configs"][cfg["name"]][name] = {"ms": ms, "value": float(value)}
s = job["silhouette"]
X = np.fromfile(s["x"], dtype="<f4").reshape(s["n"], s["d"]).astype(np.float64)
labels = np.fromfile(s["labels"], dtype="<i4")
for metric in ("euclidean", "cosine"):
    ms, value = best(lambda: metrics.silhouette_score(X, labels, metric=metric), 1)
    result["silhouette"][metric] = {"ms": ms, "value": float(value)}
print(json.dumps(result))
`;

function fmt(ms: number | undefined): string {
  return ms === undefined ? "-" : ms < 10 ? ms.toFixed(2) : ms.toFixed(0);
}

function row(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  ");
}

function main() {
  const sklearn = hasSklearn();
  const sizes = quick ? [1e5] : [1e5, 1e6];
  const configs: Config[] = [];
  let seed = 1;
  for (const n of sizes) for (const k of [10, 100]) configs.push(makeConfig(n, k, seed++));
  const silN = quick ? 2000 : 10_000;
  const silD = 128;
  const silRandom = createRandom(99);
  const silLabels = Int32Array.from({ length: silN }, () => silRandom.int(10));
  const silX = new Float32Array(silN * silD);
  for (let i = 0; i < silN; i++) {
    for (let j = 0; j < silD; j++) silX[i * silD + j] = (j % 10 === silLabels[i] ? 3 : 0) + silRandom.next() * 2;
  }

  console.log(`lib/metrics benchmark (node ${process.version}; best of 3 runs after a warm-up in JS, sklearn best of 2 at N=1e5, 1 at N=1e6)`);
  const js: Record<string, Record<string, number>> = {};
  const values: Record<string, Record<string, number>> = {};
  for (const cfg of configs) {
    js[cfg.name] = {};
    values[cfg.name] = {};
    for (const [name, fn] of METRICS) {
      js[cfg.name][name] = time(() => fn(cfg.t, cfg.p), 3);
      values[cfg.name][name] = fn(cfg.t, cfg.p) as number;
    }
    js[cfg.name].ap = time(() => apMetric(contingency(cfg.t, cfg.p)), 3);
    js[cfg.name].contingency = time(() => contingency(cfg.t, cfg.p), 3);
    js[cfg.name].table = time(() => metricsFromTable(contingency(cfg.t, cfg.p)), 3);
  }
  const timeOnce = (fn: () => number) => {
    const start = performance.now();
    const value = fn();
    return { ms: performance.now() - start, value };
  };
  const silEuclidean = timeOnce(() => silhouette(silX, silLabels).score);
  const silCosine = timeOnce(() => silhouette(silX, silLabels, { metric: "cosine" }).score);
  const silJs = { euclidean: silEuclidean.ms, cosine: silCosine.ms };
  const silValues = { euclidean: silEuclidean.value, cosine: silCosine.value };

  let py: {
    configs: Record<string, Record<string, { ms: number; value: number }>>;
    silhouette: Record<string, { ms: number; value: number }>;
  } | null = null;
  if (sklearn) {
    const dir = mkdtempSync(join(tmpdir(), "bench-metrics-"));
    try {
      const job = {
        metrics: SKLEARN_NAMES,
        configs: configs.map((cfg, i) => {
          const t = join(dir, `t${i}.bin`);
          const p = join(dir, `p${i}.bin`);
          writeFileSync(t, Buffer.from(cfg.t.buffer));
          writeFileSync(p, Buffer.from(cfg.p.buffer));
          return { name: cfg.name, t, p, repeats: cfg.n <= 1e5 ? 2 : 1 };
        }),
        silhouette: { x: join(dir, "x.bin"), labels: join(dir, "labels.bin"), n: silN, d: silD },
      };
      writeFileSync(job.silhouette.x, Buffer.from(silX.buffer));
      writeFileSync(job.silhouette.labels, Buffer.from(silLabels.buffer));
      writeFileSync(join(dir, "job.json"), JSON.stringify(job));
      writeFileSync(join(dir, "bench.py"), PY_SCRIPT);
      const out = execFileSync(PYTHON, [join(dir, "bench.py"), join(dir, "job.json")], {
        encoding: "utf8",
        maxBuffer: 1 << 24,
      });
      py = JSON.parse(out);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } else {
    console.log("scikit-learn not found at /usr/bin/python3: JS figures only");
  }

  const widths = [22, 10, 12, 9, 10];
  for (const cfg of configs) {
    console.log(`\n${cfg.name}`);
    console.log(row(["metric", "JS ms", "sklearn ms", "ratio", "|diff|"], widths));
    let jsTotal = 0;
    let pyTotal = 0;
    let worstDiff = 0;
    for (const name of SKLEARN_NAMES) {
      const j = js[cfg.name][name];
      const s = py?.configs[cfg.name][name];
      jsTotal += j;
      if (s) pyTotal += s.ms;
      const diff = s ? Math.abs(s.value - values[cfg.name][name]) : undefined;
      if (diff !== undefined) worstDiff = Math.max(worstDiff, diff);
      console.log(
        row([name, fmt(j), fmt(s?.ms), s ? `${(s.ms / j).toFixed(1)}x` : "-", diff === undefined ? "-" : diff.toExponential(1)], widths),
      );
    }
    console.log(row(["all 8 (label API)", fmt(jsTotal), py ? fmt(pyTotal) : "-", py ? `${(pyTotal / jsTotal).toFixed(1)}x` : "-", py ? worstDiff.toExponential(1) : "-"], widths));
    const table = js[cfg.name].table;
    console.log(row(["table path (7 keys)", fmt(table), py ? fmt(pyTotal) : "-", py ? `${(pyTotal / table).toFixed(1)}x` : "-", ""], widths));
    console.log(row(["  of which contingency", fmt(js[cfg.name].contingency), "", "", ""], widths));
    console.log(row(["ap (no sklearn)", fmt(js[cfg.name].ap), "", "", ""], widths));
  }
  console.log(`\nsilhouette N=${silN}, D=${silD}, 10 clusters (exact; one run each, no warm-up)`);
  console.log(row(["metric", "JS ms", "sklearn ms", "ratio", "|diff|"], widths));
  for (const metric of ["euclidean", "cosine"] as const) {
    const s = py?.silhouette[metric];
    console.log(
      row(
        [metric, fmt(silJs[metric]), fmt(s?.ms), s ? `${(s.ms / silJs[metric]).toFixed(2)}x` : "-", s ? Math.abs(s.value - silValues[metric]).toExponential(1) : "-"],
        widths,
      ),
    );
  }
  console.log("\nratio = sklearn time / JS time (> 1: JS faster); |diff| = largest |sklearn - JS| value difference");
}

main();
