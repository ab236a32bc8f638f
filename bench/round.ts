/**
 * Speed of one Cereal round with the TF.js MLP surrogate (issue 5): ms per FixMatch step, and a
 * round's time (train + pseudo-label + estimate + acquire) at N = 10k and 100k, D = 128, on the
 * backend models/ picks (wasm on machines without libtensorflow). Synthetic data: 10 Gaussian
 * classes and one test clustering that agrees with them on ~80% of the items.
 *
 *   npm run bench:round                       # N = 10000,100000, 512 steps
 *   npm run bench:round -- --n 10000 --steps 128
 *
 * Prints one line per figure and a JSON line per N at the end. Not a timed test: figures depend
 * on the machine and its load (run it alone; `nice` lowers its priority, not its cost).
 */
import { argmaxEstimator } from "@/lib/cereal/estimators";
import { drawUniform, recordDraws } from "@/lib/cereal/designs";
import { initialState, type CerealProblem } from "@/lib/cereal/problem";
import { Random } from "@/lib/cereal/random";
import { runRound } from "@/lib/cereal/round";
import { ensureBackend } from "@/models/backend";
import { MlpSurrogate } from "@/models/mlp-surrogate";
import { Rng } from "@/models/random";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const sizes = arg("n", "10000,100000").split(",").map(Number);
const steps = Number(arg("steps", "512"));
const d = Number(arg("d", "128"));
const classes = 10;
const seedBatch = Number(arg("seed-batch", "100"));
const batch = Number(arg("batch", "100"));

function syntheticProblem(n: number, seed: number): { problem: CerealProblem; y: Int32Array } {
  const rng = new Rng(seed);
  const centres = Float32Array.from({ length: classes * d }, () => rng.normal() * 0.5);
  const data = new Float32Array(n * d);
  const y = new Int32Array(n);
  const assignments = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    y[i] = rng.int(classes);
    for (let j = 0; j < d; j++) data[i * d + j] = centres[y[i] * d + j] + rng.normal();
    assignments[i] = rng.next() < 0.8 ? y[i] : rng.int(classes);
  }
  return {
    problem: { embeddings: { data, n, d }, numClasses: classes, clusterings: [{ name: "noisy", assignments, k: classes }] },
    y,
  };
}

const line = (label: string, value: string) => console.log(`${label.padEnd(44)} ${value}`);

const choice = await ensureBackend();
line("backend", `${choice.name} (${choice.source})`);
line("model", `MLP ${d} -> 4 x 128 -> ${classes}; FixMatch B=32, mu*B=224, ${steps} steps`);
const results: Record<string, unknown>[] = [];
for (const n of sizes) {
  const { problem, y } = syntheticProblem(n, 1);
  const surrogate = await MlpSurrogate.create(problem.embeddings, classes);
  const all = Int32Array.from({ length: n }, (_, i) => i);
  const seedDraws = recordDraws(drawUniform(all, seedBatch, new Random(7)), "uniform", 0, 0);
  const state = initialState(problem, seedDraws, Int32Array.from(seedDraws, (draw) => y[draw.row]));

  // ms per step on its own: a short fit after a warm-up one (first kernels compile and allocate)
  const unlabeled = all.filter((r) => !seedDraws.some((draw) => draw.row === r));
  await surrogate.fit(state.labeled, unlabeled, { seed: 1, fixmatch: true, steps: 16 });
  const probe = await surrogate.fit(state.labeled, unlabeled, { seed: 2, fixmatch: true, steps: 64 });
  const msPerStep = (probe.trainSeconds * 1000) / probe.steps;
  line(`N=${n}: ms per FixMatch step (64-step fit)`, msPerStep.toFixed(2));

  const round = await runRound(state, surrogate, {
    acquisition: "hardnmi",
    estimator: argmaxEstimator,
    fixmatch: true,
    steps,
    batch,
    seed: 3,
    intervals: false,
  });
  const train = round.fit?.trainSeconds ?? 0;
  const predictStart = performance.now();
  await surrogate.predictProba(round.unlabeled);
  const predict = (performance.now() - predictStart) / 1000;
  const rest = round.roundSeconds - train - predict;
  line(`N=${n}: round (Hard NMI, argmax, ${batch} acquired)`, `${round.roundSeconds.toFixed(2)} s`);
  line(`  train (${round.fit?.steps} steps, mask rate ${round.fit?.maskRate?.toFixed(2)})`, `${train.toFixed(2)} s = ${((train * 1000) / (round.fit?.steps ?? 1)).toFixed(2)} ms/step`);
  line(`  pseudo-label (predictProba on ${round.unlabeled.length} rows)`, `${predict.toFixed(2)} s`);
  line(`  estimate + acquire (the rest)`, `${rest.toFixed(2)} s`);
  results.push({ n, d, steps, backend: choice.name, msPerStep, roundSeconds: round.roundSeconds, trainSeconds: train, predictSeconds: predict, estimateAcquireSeconds: rest });
  surrogate.dispose();
}
for (const r of results) console.log(JSON.stringify(r));
