/**
 * Coverage of the pair-count intervals for the uncertain and anchor designs (issue #25), from
 * `simulate --mode pairwise --pair-ppi` files named DESIGN-BUNDLE-seedS.json in one folder:
 *
 *   for S in $(seq 0 99); do for D in uncertain anchor; do
 *     nice -n 19 npm run cereal -- simulate --mode pairwise --bundle data/BUNDLE --clustering kmeans_k10 --pair-design $D --uniform-share 0.5 --seed $S --batch 200 --budget 1000 --no-intervals --no-timings --quiet --pair-ppi --out var/i25d/$D-BUNDLE-seed$S.json
 *   done; done
 *   node --import tsx bench/pair-design-coverage.ts var/i25d [CLUSTERING]
 *
 * Per bundle and design, for NMI and ARI: the 90% intervals' coverage with runs as the unit (mean of
 * each run's share of rounds whose pair-ppi interval holds the truth, ± its standard error), the
 * last rounds covered, the mean last-round width, and AEC per 1,000 answers of argmax and pair-ppi.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { mean, se } from "./sample-stats";

interface Round {
  readonly true: Record<string, Record<string, number>>;
  readonly byEstimator: Record<string, { interval: Record<string, Record<string, [number, number]>> }>;
}
interface Run {
  readonly rounds: Round[];
  readonly summary: { byEstimator: Record<string, { aecPer1000Labels: Record<string, number> }> };
}

const dir = process.argv[2] ?? "var/i25d";
const clustering = process.argv[3] ?? "kmeans_k10";
const groups = new Map<string, Run[]>();
for (const f of readdirSync(dir).filter((name) => /^[a-z]+-[a-z-]+-seed\d+\.json$/.test(name))) {
  const [design, ...rest] = f.replace(/-seed\d+\.json$/, "").split("-");
  const key = `${rest.join("-")} ${design}`;
  groups.set(key, [...(groups.get(key) ?? []), JSON.parse(readFileSync(join(dir, f), "utf8")) as Run]);
}
const holds = (r: Round, m: string) => {
  const [lo, hi] = r.byEstimator["pair-ppi"].interval[clustering][m];
  return r.true[clustering][m] >= lo && r.true[clustering][m] <= hi;
};
console.log("| bundle, design | runs | metric | 90% coverage, runs as unit (± se) | last round covered | last-round width | AEC argmax | AEC pair-ppi |");
console.log("|---|---|---|---|---|---|---|---|");
for (const [key, runs] of [...groups].sort(([a], [b]) => a.localeCompare(b)))
  for (const m of ["nmi", "ari"]) {
    const perRun = runs.map((r) => r.rounds.filter((x) => holds(x, m)).length / r.rounds.length);
    const last = runs.filter((r) => holds(r.rounds.at(-1)!, m)).length;
    const width = mean(runs.map((r) => {
      const [lo, hi] = r.rounds.at(-1)!.byEstimator["pair-ppi"].interval[clustering][m];
      return hi - lo;
    }));
    const aec = (e: string) => runs.map((r) => r.summary.byEstimator[e].aecPer1000Labels[m]);
    const cell = (x: number[]) => `${mean(x).toFixed(4)} ± ${se(x).toFixed(4)}`;
    console.log(`| ${key} | ${runs.length} | ${m} | ${mean(perRun).toFixed(3)} ± ${se(perRun).toFixed(3)} | ${last}/${runs.length} | ${width.toFixed(3)} | ${cell(aec("argmax"))} | ${cell(aec("pair-ppi"))} |`);
  }
