/**
 * CPU seconds of a round's N-dependent steps without the surrogate or the database (issue #24):
 * the estimate (guarded estimator, 200 interval draws, 4 clusterings of K = 10 and 20), the
 * ranking (rankRound) and a stage drawn from the ranking (drawStage), on a synthetic problem with
 * 100 labels and a fixed pi. Used for the before/after figures of the fixes: run it in a checkout
 * of each commit and compare; the printed interval is the same when only the speed changed.
 *
 *   node --import tsx bench/estimate-at-n.ts 1000000
 */
import { drawUniform, recordDraws } from "@/lib/cereal/method/designs";
import { estimatorByName } from "@/lib/cereal/method/estimators";
import { initialState, type CerealProblem } from "@/lib/cereal/method/problem";
import { estimateRound, rankRound } from "@/lib/cereal/method/round";
import { drawStage } from "@/lib/cereal/method/stages";
import { Random } from "@/lib/random/named-streams";

const n = Number(process.argv[2] ?? 1_000_000);
const C = 10;
const random = new Random(1);
const y = Int32Array.from({ length: n }, () => random.int(C));
const clusterings = [10, 20, 10, 20].map((k, j) => ({ name: `c${j}`, k, assignments: Int32Array.from(y, (v) => (random.next() < 0.8 ? (v * (k / 10) + random.int(k / 10)) % k : random.int(k))) }));
const problem: CerealProblem = { embeddings: { data: new Float32Array(0), n, d: 0 }, numClasses: C, clusterings };
const all = Int32Array.from({ length: n }, (_, i) => i);
const seed = recordDraws(drawUniform(all, 100, new Random(7)), "uniform", 0, 0);
const state = initialState(problem, seed, Int32Array.from(seed, (d) => y[d.row]));
const taken = new Uint8Array(n);
for (const r of state.labeled.rows) taken[r] = 1;
const unlabeled = all.filter((r) => !taken[r]);
const proba = new Float32Array(unlabeled.length * C);
for (let i = 0; i < unlabeled.length; i++) {
  let s = 0;
  for (let c = 0; c < C; c++) s += proba[i * C + c] = random.next() + (c === y[unlabeled[i]] ? 3 : 0);
  for (let c = 0; c < C; c++) proba[i * C + c] /= s;
}
const options = { acquisition: "hardnmi" as const, design: "proportional" as const, estimator: estimatorByName("guarded"), fixmatch: true, seed: 1, batch: 100, exclude: state.labeled.rows };
const fitted = { unlabeled, fit: null, proba, health: null, fixmatch: true, weights: null };
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
let t = cpu();
const estimated = estimateRound(state, fitted, options);
const est = cpu() - t;
t = cpu();
const ranking = rankRound(state, fitted, estimated, options);
const rank = cpu() - t;
t = cpu();
const stage = drawStage({ stage: 1, firstOrder: 100, pool: unlabeled, size: 100, ranking, numClasses: C, clusterings, random: new Random(3) });
const draw = cpu() - t;
console.log(`N=${n}: CPU estimate (200 interval draws, guarded) ${est.toFixed(2)} s, rank ${rank.toFixed(2)} s, drawStage ${draw.toFixed(2)} s; peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB; NMI interval of c0 ${JSON.stringify(estimated.intervals!.interval.c0.nmi)}, ${stage.draws.length} drawn`);
