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
 * on the machine and its load. Each figure is wall time and, in brackets, this process's CPU
 * time: on a shared machine the CPU time is the closer estimate of the unloaded wall time.
 */
import { argmaxEstimator } from "@/lib/cereal/method/estimators";
import { drawUniform, recordDraws } from "@/lib/cereal/method/designs";
import { initialState, type CerealProblem } from "@/lib/cereal/method/problem";
import { Random } from "@/lib/random/named-streams";
import { runRound } from "@/lib/cereal/method/round";
import type { Surrogate } from "@/lib/cereal/method/surrogate";
import { ensureBackend } from "@/models/backend";
import { MlpSurrogate } from "@/models/class-surrogate";
import { Rng } from "@/models/trainer-random";

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

const line = (label: string, value: string) => console.log(`${label.padEnd(52)} ${value}`);

/** wall and CPU (user + system) seconds of this process */
interface Clock {
  wall: number;
  cpu: number;
}
const now = (): Clock => {
  const u = process.cpuUsage();
  return { wall: performance.now() / 1000, cpu: (u.user + u.system) / 1e6 };
};
const since = (t: Clock): Clock => {
  const n = now();
  return { wall: n.wall - t.wall, cpu: n.cpu - t.cpu };
};
const fmt = (c: Clock, scale = 1, unit = "s") => `${(c.wall * scale).toFixed(2)} ${unit} (CPU ${(c.cpu * scale).toFixed(2)})`;

/** wraps a surrogate to time its calls inside runRound: fit vs pseudo-labelling */
function timed(inner: Surrogate) {
  const spent = { fit: { wall: 0, cpu: 0 }, predict: { wall: 0, cpu: 0 } };
  const add = (into: Clock, c: Clock) => {
    into.wall += c.wall;
    into.cpu += c.cpu;
  };
  const surrogate: Surrogate = {
    async fit(...args) {
      const t = now();
      const report = await inner.fit(...args);
      add(spent.fit, since(t));
      return report;
    },
    async predictProba(rows) {
      const t = now();
      const p = await inner.predictProba(rows);
      add(spent.predict, since(t));
      return p;
    },
    async predictProbaMc(rows, passes, seed) {
      const t = now();
      const p = await inner.predictProbaMc(rows, passes, seed);
      add(spent.predict, since(t));
      return p;
    },
    dispose: () => inner.dispose(),
  };
  return { surrogate, spent };
}

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
  const probeStart = now();
  const probe = await surrogate.fit(state.labeled, unlabeled, { seed: 2, fixmatch: true, steps: 64 });
  const perStep = since(probeStart);
  line(`N=${n}: ms per FixMatch step (64-step fit)`, fmt(perStep, 1000 / probe.steps, "ms"));

  const { surrogate: timedSurrogate, spent } = timed(surrogate);
  const roundStart = now();
  const round = await runRound(state, timedSurrogate, {
    acquisition: "hardnmi",
    estimator: argmaxEstimator,
    fixmatch: true,
    steps,
    batch,
    seed: 3,
    intervals: false,
  });
  const total = since(roundStart);
  const rest = { wall: total.wall - spent.fit.wall - spent.predict.wall, cpu: total.cpu - spent.fit.cpu - spent.predict.cpu };
  const fitSteps = round.fit?.steps ?? 1;
  line(`N=${n}: round (Hard NMI, argmax estimate, ${batch} acquired)`, fmt(total));
  line(`  train (${fitSteps} steps, mask rate ${round.fit?.maskRate?.toFixed(2)})`, fmt(spent.fit));
  line(`    per step`, fmt(spent.fit, 1000 / fitSteps, "ms"));
  line(`  pseudo-label (predictProba on ${round.unlabeled.length} rows)`, fmt(spent.predict));
  line(`  estimate + acquire (the rest)`, fmt(rest));
  results.push({
    n,
    d,
    steps,
    backend: choice.name,
    msPerStep: { wall: (perStep.wall * 1000) / probe.steps, cpu: (perStep.cpu * 1000) / probe.steps },
    round: total,
    train: spent.fit,
    pseudoLabel: spent.predict,
    estimateAcquire: rest,
  });
  surrogate.dispose();
}
for (const r of results) console.log(JSON.stringify(r));
