/**
 * Replays the guarded estimator's choice (issue #23) on recorded runs, paired with Random by bundle
 * and seed. A guard only picks, per round, which table's estimate to report; every table it picks
 * from is recorded in a run made with `--compare soft,ppi,ppi-hard,ppi-jackknife` (the weak branch is
 * `ppi-jackknife`, the diffuse one `ppi-hard`), and the round's surrogate health is recorded too, so
 * a guard's point estimates, and with them its AEC, follow from one set of runs for any threshold.
 * Rows: the recorded estimators but the guards, then the guard of estimators-guarded.ts replayed with the
 * over-confidence threshold G (0.15-0.3; "-" = not read, the guard before issue #23's second part), the reading
 * kept once made (as the code does) or read in the latest window only, and at G = 0.25 with each other
 * recorded prediction-powered form (`ppi-jackknife`, `ppi-size`, `ppi-labels`, ...) instead of `ppi` in its overconfident branch.
 * AEC(NMI) per 1000 labels over the rounds up to the smaller budget, mean over the clusterings.
 * Runs made with `--record-predictions` also replay the readings of the soft table's bias from the
 * out-of-sample residuals (soft-residual.ts) per clustering: the table-space reading above X, or the
 * NMI-projected residual's z above Z (the soft table reads low), in any window so far: the soft
 * table's rounds then report ppi. Runs made with `--compare soft,ppi` (and intervals) also replay a guard that
 * reports ppi where the soft and ppi NMI are more than Z of ppi's standard errors apart (read off ppi's recorded
 * 90% interval), in this round or, kept, in any round so far. `--bundles DIR,DIR` names the bundles' folders (labels, clusterings)
 * and adds the switch to ppi from 5-40 labels per cell (labelsArePlentiful). A run's recorded `guarded` is the guard of the
 * code that made it: since the plentiful-labels rule (be9674c) it switches at 5 per cell itself, and since the gap gate its
 * overconfident branch needs the soft-ppi gap (that guard's form before the gate is `guarded-no-gap`); with `--bundles`,
 * such runs also replay that gate (with ppi's bootstrap s.e.) at z = 1-3, and at z = 2 with the over-confidence read
 * from G = 0.15 or 0.2 instead of 0.25. Runs of `--surrogate select`
 * (a group of their own) also replay the recorded guard with the soft table wherever the mixture predicted and read calibrated.
 * Runs made with `--compare soft,ppi,ppi-jackknife` also replay the recorded guard with `ppi-jackknife` wherever it
 * reported `ppi` (its overconfident and plentiful branches: the weak branch's small-sample correction there too). That
 * row means something only for runs recorded before 92b8244, whose `guarded` reported the plain `ppi` there; since then
 * `guarded` is that replay itself, and the row reads the same as the recorded guard. Runs made with
 * `--compare soft,ppi-jackknife` also replay fixed-weight averages of the soft and jackknifed ppi NMI wherever the guard
 * reads the surrogate neither weak nor diffuse (issue #23's lead: they bracket the truth on the weak set), and their mean only
 * where the choosing guard left the soft table (`guarded-pick`; runs since its adoption as the mean must compare it), or
 * there and where the surrogate's recent out-of-sample accuracy is below 0.7, 0.8 or 0.9.
 *
 *   node --import tsx bench/guard-replay.ts [--bundles DIR,DIR] RUN.json [RUN.json ...]   (Random's runs among them)
 */
import { readFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import { parseArgs } from "node:util";
import { aec } from "@/lib/cereal/harness/aec";
import type { RoundRecord, SimulationResult } from "@/lib/cereal/harness/simulate";
import { labelsArePlentiful, OVERCONFIDENT_GAP_Z, PLENTIFUL_LABELS_PER_CELL } from "@/lib/cereal/method/estimators-guarded";
import type { RowPrediction } from "@/lib/cereal/method/out-of-sample";
import { softResidualReading, type SoftResidualReading } from "@/lib/cereal/method/soft-residual";
import { readsOverconfident } from "@/lib/cereal/method/surrogate-health";
import { loadBundle } from "@/lib/data/bundle";
import { mean, se } from "./sample-stats";

type RunFile = SimulationResult & { readonly bundle: string; readonly surrogate?: string };
const { values, positionals: files } = parseArgs({ options: { bundles: { type: "string", default: "" } }, allowPositionals: true });
if (files.length === 0) {
  process.stderr.write("usage: node --import tsx bench/guard-replay.ts [--bundles DIR,DIR] RUN.json [RUN.json ...] (cereal simulate --out files, Random's among them)\n");
  process.exit(2);
}
const runs = files.map((file) => JSON.parse(readFileSync(file, "utf8")) as RunFile);
const bundles = new Map(
  await Promise.all(
    values.bundles!.split(",").filter(Boolean).map(async (dir) => {
      const b = await loadBundle(dir);
      return [b.manifest.name ?? basename(resolve(dir)), b] as const;
    }),
  ),
);
/** per run, round and clustering: the soft table's readings (soft-residual.ts), when the run recorded its predictions */
const residualReadings = new Map<RunFile, Map<number, Record<string, SoftResidualReading | null>>>();
for (const run of runs) {
  const bundle = bundles.get(run.bundle);
  if (!run.predictions || !bundle) continue;
  const predictions = new Map<number, RowPrediction>(Object.entries(run.predictions).map(([row, pi]) => [Number(row), { raw: Float32Array.from(pi), calibrated: Float32Array.from(pi) }]));
  const byRound = new Map<number, Record<string, SoftResidualReading | null>>();
  for (const r of run.rounds) {
    const draws = run.draws.slice(0, r.nLabels);
    const labeled = { rows: Int32Array.from(draws, (d) => d.row), labels: Int32Array.from(draws, (d) => bundle.labels![d.row]) };
    const record = { batches: new Map(), predictions };
    byRound.set(r.round, Object.fromEntries(bundle.clusterings.map((c) => [c.name, softResidualReading(labeled, draws, record, c, bundle.numClasses)])));
  }
  residualReadings.set(run, byRound);
}
const isRandom = (r: RunFile) => r.config.acquisition === "random" && r.config.design === "uniform" && r.config.estimator === "labels";
const key = (r: RunFile) => `${r.bundle}|${r.config.seed}`;
const randoms = new Map(runs.filter(isRandom).map((r) => [key(r), r]));

/** which recorded estimator a round reports, given the rounds before it, or the NMI it reports */
type Pick = (round: RoundRecord, earlier: readonly RoundRecord[], clustering: string, run: RunFile) => string | number;
function aecOf(run: RunFile, budget: number, pick: Pick): number {
  const rounds = run.rounds.filter((r) => r.nLabels <= budget);
  const clusterings = run.config.clusterings as string[];
  const nmi = (r: RoundRecord, i: number, c: string) => {
    const picked = pick(r, rounds.slice(0, i), c, run);
    return typeof picked === "number" ? picked : r.byEstimator![picked].estimate[c].nmi;
  };
  const curve = (c: string) => rounds.map((r, i) => ({ nLabels: r.nLabels, absErr: Math.abs(nmi(r, i, c) - r.true[c].nmi) }));
  return clusterings.reduce((a, c) => a + aec(curve(c), 1000), 0) / clusterings.length;
}
/** the round's latest calibration window read overconfident (each round records its latest window; the guard reads every window so far) */
const over = (r: RoundRecord, gap: number) => {
  const h = r.surrogateHealth;
  return !!h && h.recentUnderconfidence !== null && readsOverconfident({ count: h.recentCount, gap: h.recentUnderconfidence }, { overconfidentGap: gap });
};
/** the guard of estimators-guarded.ts: weak -> jackknifed ppi, diffuse -> ppi-hard, overconfident above `gap` in this
 * round's window (or, `sticky`, in any round's so far) -> ppi, else soft */
const guard =
  (gap: number | null, sticky = true, overconfidentBranch = "ppi"): Pick =>
  (r, earlier) => {
    const h = r.surrogateHealth;
    if (h?.weak) return "ppi-jackknife";
    if (h?.diffuse) return "ppi-hard";
    if (gap === null) return "soft";
    return over(r, gap) || (sticky && earlier.some((e) => over(e, gap))) ? overconfidentBranch : "soft";
  };

/** the guard above at G = 0.25, and where it keeps the soft table, ppi once `fires` has read this clustering's residuals so in some round */
const residualGuard =
  (fires: (reading: SoftResidualReading) => boolean): Pick =>
  (r, earlier, c, run) => {
    const base = guard(0.25)(r, earlier, c, run);
    const readings = residualReadings.get(run);
    if (base !== "soft" || !readings) return base;
    return [...earlier, r].some((e) => {
      const reading = readings.get(e.round)?.[c];
      return !!reading && fires(reading);
    })
      ? "ppi"
      : "soft";
  };

/** the ppi table's NMI standard error in a round, read off its recorded 90% interval (null without one) */
const ppiSe = (r: RoundRecord, c: string) => {
  const interval = r.byEstimator?.ppi?.interval?.[c]?.nmi;
  return interval ? (interval[1] - interval[0]) / (2 * 1.645) : null;
};
/** the soft and ppi NMI of a round are further apart than z of ppi's standard errors */
const gapFires = (r: RoundRecord, c: string, z: number) => {
  const s = ppiSe(r, c);
  const soft = r.byEstimator?.soft?.estimate[c]?.nmi;
  const ppi = r.byEstimator?.ppi?.estimate[c]?.nmi;
  return s !== null && soft !== undefined && ppi !== undefined && Math.abs(soft - ppi) > z * s;
};
/** the recorded guard (the run's code), and where it reported the soft table, ppi when the soft-ppi gap exceeds z
 * standard errors (this round only, or `sticky`: in any round so far); needs runs of `--recommended --compare soft,ppi` */
const gapGuard =
  (z: number, sticky: boolean): Pick =>
  (r, earlier, c) => {
    // the guard the run was made with: where it reported the soft table, the gap may move it to ppi
    if (r.byEstimator!.guarded.estimate[c].nmi !== r.byEstimator!.soft.estimate[c].nmi) return "guarded";
    return gapFires(r, c, z) || (sticky && earlier.some((e) => gapFires(e, c, z))) ? "ppi" : "soft";
  };

/** the recorded guard, but its overconfident branch (ppi where the surrogate is neither weak nor diffuse) keeps the soft
 * table unless the soft-ppi gap exceeds z standard errors in this round */
const overconfidentNeedsGap =
  (z: number): Pick =>
  (r, _earlier, c) => {
    const b = r.byEstimator!;
    const overconfidentBranch = !r.surrogateHealth?.weak && !r.surrogateHealth?.diffuse && b.guarded.estimate[c].nmi !== b.soft.estimate[c].nmi;
    return !overconfidentBranch ? "guarded" : gapFires(r, c, z) ? "ppi" : "soft";
  };

/** where the recorded guard reports the soft table or its overconfident branch, the soft NMI moved towards ppi's by
 * w = max(0, 1 - k se^2 / D^2) (D the soft-ppi gap, se ppi's standard error): a shrinkage that trusts the gap once it is
 * larger than ppi's own noise (the estimated squared bias D^2 - se^2 over D^2, at k = 1) */
const shrinkTowardsPpi =
  (k: number): Pick =>
  (r, _earlier, c) => {
    const b = r.byEstimator!;
    const soft = b.soft.estimate[c].nmi;
    const ppi = b.ppi.estimate[c].nmi;
    const guarded = b.guarded.estimate[c].nmi;
    if (guarded !== soft && (r.surrogateHealth?.weak || r.surrogateHealth?.diffuse)) return "guarded";
    const s = ppiSe(r, c) ?? 0;
    const d2 = (soft - ppi) ** 2;
    const w = d2 > 0 ? Math.max(0, 1 - (k * s * s) / d2) : 0;
    return soft + w * (ppi - soft);
  };

/** which rounds softPpiAverage averages: wherever the surrogate reads neither weak nor diffuse, wherever not diffuse (the weak
 * rounds too), or (`accuracyBelow` a) where the choosing guard (`guarded-pick`, recorded as `guarded` by runs before its
 * adoption as the mean) left the soft table for the jackknifed ppi one though not weak (its overconfident and plentiful
 * branches), and in its soft rounds where the surrogate's recent out-of-sample accuracy is below a (0: none of them) */
type AveragedRounds = "not-weak" | "everywhere" | { readonly accuracyBelow: number };

/** the recorded guard where the surrogate reads weak or diffuse (its jackknifed ppi or ppi-hard table), elsewhere the soft and
 * jackknifed ppi NMI averaged with the soft one weighted `w` in the `rounds` named, the soft table in the others */
const softPpiAverage =
  (w: number, rounds: AveragedRounds = "not-weak"): Pick =>
  (r, _earlier, c) => {
    const h = r.surrogateHealth;
    if (h?.diffuse || (h?.weak && rounds !== "everywhere")) return "guarded";
    const b = r.byEstimator!;
    const pickKeptSoft = (b["guarded-pick"] ?? b.guarded).estimate[c].nmi === b.soft.estimate[c].nmi;
    if (typeof rounds === "object" && pickKeptSoft && (h?.recentAccuracy ?? 1) >= rounds.accuracyBelow) return "soft";
    return w * b.soft.estimate[c].nmi + (1 - w) * b["ppi-jackknife"].estimate[c].nmi;
  };

/** the guard before the plentiful-labels rule, from a run's records: weak or diffuse as recorded (the run's guard then
 * reports the jackknifed ppi or ppi-hard whatever its code), else ppi once a window read overconfident (by G, the code's
 * 0.25 unless named), else soft */
const guardBeforePlentifulAt =
  (G: number): Pick =>
  (r, earlier) => {
    if (r.surrogateHealth?.weak || r.surrogateHealth?.diffuse) return "guarded";
    return over(r, G) || earlier.some((e) => over(e, G)) ? "ppi" : "soft";
  };
const guardBeforePlentiful = guardBeforePlentifulAt(0.25);
/** the labels number `perCell` per cell of the clustering's table (classes x clusters) in this round */
const plentiful = (perCell: number, r: RoundRecord, c: string, run: RunFile) => {
  const bundle = bundles.get(run.bundle);
  const k = bundle?.clusterings.find((x) => x.name === c)?.k;
  if (!bundle || k === undefined) throw new Error(`--bundles must name ${run.bundle}'s folder for the labels-per-cell rule`);
  return labelsArePlentiful(r.nLabels, bundle.numClasses, k, perCell);
};
/** the guard before the rule until the labels number `perCell` per cell, then ppi (at 5: the default guard from be9674c until the gap gate, now `guarded-no-gap`) */
const ppiOncePerCell =
  (perCell: number): Pick =>
  (r, earlier, c, run) =>
    plentiful(perCell, r, c, run) ? "ppi" : guardBeforePlentiful(r, earlier, c, run);
/** the same without the overconfident branch: does the plentiful-labels rule leave the over-confidence reading anything to do? */
const withoutOverconfidence =
  (perCell: number): Pick =>
  (r, earlier, c, run) => {
    if (plentiful(perCell, r, c, run)) return "ppi";
    const picked = guardBeforePlentiful(r, earlier, c, run);
    return picked === "ppi" ? "soft" : picked;
  };

/** `guarded-no-gap` (ppi from `perCell` labels per cell on), but before then its overconfident branch keeps the soft table
 * unless the soft-ppi gap exceeds z ppi standard errors in this round (overconfidentNeedsGap cannot tell that branch from
 * the plentiful rule's ppi in runs made since be9674c; this one replays both) */
const overconfidentNeedsGapBeforePlentiful =
  (perCell: number, z: number, G = 0.25): Pick =>
  (r, earlier, c, run) => {
    if (plentiful(perCell, r, c, run)) return "ppi";
    const picked = guardBeforePlentifulAt(G)(r, earlier, c, run);
    return picked === "ppi" && !gapFires(r, c, z) ? "soft" : picked;
  };

/** the mean of softPpiAverage(0.5) with the plain ppi NMI in place of the jackknifed once the labels number `perCell` per cell
 * of the clustering's table (the default `guarded` at 1, since 2026-12-05), the recorded guard where weak or diffuse */
const plainPpiMeanFrom =
  (perCell: number): Pick =>
  (r, _earlier, c, run) => {
    const h = r.surrogateHealth;
    if (h?.weak || h?.diffuse) return "guarded";
    const b = r.byEstimator!;
    return (b.soft.estimate[c].nmi + b[plentiful(perCell, r, c, run) ? "ppi" : "ppi-jackknife"].estimate[c].nmi) / 2;
  };

/** the round's surrogate is the Gaussian mixture (`--surrogate select` records the family it chose as the backend) */
const mixtureChosen = (r: RoundRecord) => r.backend?.startsWith("mixture:") ?? false;
/** the recorded guard, but the soft table where the mixture predicts and reads calibrated within `maxGap` (the previous
 * model's 1/q-weighted accuracy minus its confidence, the window the round records), and, unless `evenWeak`, is not weak */
const softWhileMixtureCalibrated =
  (maxGap: number, evenWeak: boolean): Pick =>
  (r) => {
    const h = r.surrogateHealth;
    const calibrated = !!h && (evenWeak || !h.weak) && h.recentUnderconfidence !== null && Math.abs(h.recentUnderconfidence) <= maxGap;
    return mixtureChosen(r) && calibrated ? "soft" : "guarded";
  };

/** the recorded guard, but the weak branch's jackknifed ppi wherever it reported the plain ppi table (its overconfident and plentiful branches) */
const jackknifedPpiBranches: Pick = (r, _earlier, c) =>
  r.byEstimator!.guarded.estimate[c].nmi === r.byEstimator!.ppi.estimate[c].nmi ? "ppi-jackknife" : "guarded";

const byBundle = new Map<string, RunFile[]>();
for (const run of runs.filter((r) => !isRandom(r))) {
  if (!randoms.has(key(run))) throw new Error(`no Random run of ${run.bundle} seed ${run.config.seed}`);
  const label = `${run.bundle} (${run.config.acquisition}, ${run.config.design}${run.surrogate && run.surrogate !== "mlp" ? `, ${run.surrogate} surrogate` : ""})`;
  byBundle.set(label, [...(byBundle.get(label) ?? []), run]);
}

console.log("| bundle (acquisition, design) | estimator | seeds | AEC NMI per 1000 labels (Random's) | ratio of means | minus Random, mean ± se | seeds better than Random | minus the guard before (G = -), mean ± se |");
console.log("|---|---|---|---|---|---|---|---|");
for (const [label, group] of [...byBundle.entries()].sort()) {
  const budget = Math.min(...group.flatMap((r) => [r.summary.nLabels, randoms.get(key(r))!.summary.nLabels]));
  const random = group.map((r) => aecOf(randoms.get(key(r))!, budget, () => "labels"));
  // the recorded guards are left out: which guard `guarded` names depends on the code a run was made with; the replay says
  const recorded = Object.keys(group[0].rounds[0].byEstimator ?? {})
    .filter((name) => !name.startsWith("guarded"))
    .map((name): [string, Pick] => [name, () => name]);
  // a run of `--recommended --compare soft,ppi` records its own guard's picks but not every table a replay picks from
  const replayable = recorded.some(([name]) => name === "ppi-jackknife") && recorded.some(([name]) => name === "ppi-hard");
  const replayed: [string, Pick][] = replayable
    ? [
        ...[null, 0.15, 0.2, 0.25, 0.3].map((gap): [string, Pick] => [`guard replayed, G = ${gap ?? "-"}`, guard(gap)]),
        ...[0.15, 0.25].map((gap): [string, Pick] => [`guard replayed, G = ${gap}, latest window only`, guard(gap, false)]),
        ...recorded
          .map(([name]) => name)
          .filter((name) => name.startsWith("ppi-") && name !== "ppi-hard")
          .map((name): [string, Pick] => [`guard replayed, G = 0.25, ${name} when overconfident`, guard(0.25, true, name)]),
      ]
    : [["the recorded guard", () => "guarded"]];
  if (group.every((r) => r.rounds.every((round) => round.byEstimator?.ppi?.interval && round.byEstimator?.soft && round.byEstimator?.guarded))) {
    for (const z of [2, 3, 4])
      replayed.push(
        [`recorded guard + soft-ppi gap > ${z} ppi s.e.`, gapGuard(z, false)],
        [`recorded guard + soft-ppi gap > ${z} ppi s.e., kept once read`, gapGuard(z, true)],
        [`recorded guard, its overconfident branch only while the gap > ${z} ppi s.e.`, overconfidentNeedsGap(z)],
      );
    if (group.every((r) => bundles.has(r.bundle)))
      for (const t of [5, 10, 20, 40])
        replayed.push(
          [`the guard before the rule, ppi from ${t} labels per cell (classes x clusters) on${t === PLENTIFUL_LABELS_PER_CELL ? " (guarded-no-gap)" : ""}`, ppiOncePerCell(t)],
          [`no overconfident branch, ppi from ${t} labels per cell on`, withoutOverconfidence(t)],
        );
    if (group.every((r) => bundles.has(r.bundle)))
      for (const z of [1, 2, 3])
        replayed.push([
          `guarded-no-gap, its overconfident branch only while the gap > ${z} ppi bootstrap s.e.${z === OVERCONFIDENT_GAP_Z ? " (the default guard with the bootstrap's s.e. for the jackknife's)" : ""}`,
          overconfidentNeedsGapBeforePlentiful(PLENTIFUL_LABELS_PER_CELL, z),
        ]);
    // with the gap gate, the over-confidence reading may start lower than the 25 points it needed on its own
    if (group.every((r) => bundles.has(r.bundle)))
      for (const G of [0.15, 0.2])
        replayed.push([
          `guarded-no-gap, its overconfident branch from G = ${G} and only while the gap > ${OVERCONFIDENT_GAP_Z} ppi bootstrap s.e.`,
          overconfidentNeedsGapBeforePlentiful(PLENTIFUL_LABELS_PER_CELL, OVERCONFIDENT_GAP_Z, G),
        ]);
    for (const k of [0.5, 1, 2, 4]) replayed.push([`soft shrunk towards ppi, w = max(0, 1 - ${k} se^2 / D^2)`, shrinkTowardsPpi(k)]);
    if (group.some((r) => r.rounds.some(mixtureChosen)))
      for (const gap of [0.05, 0.1, 1])
        for (const evenWeak of [false, true])
          replayed.push([
            `recorded guard, soft where the mixture predicts${evenWeak ? "" : ", is not weak"} and reads calibrated within ${gap === 1 ? "any gap" : gap}`,
            softWhileMixtureCalibrated(gap, evenWeak),
          ]);
  }
  if (group.every((r) => r.rounds.every((round) => round.byEstimator?.ppi && round.byEstimator?.["ppi-jackknife"] && round.byEstimator?.guarded)))
    replayed.push(["recorded guard, ppi-jackknife wherever it reported ppi", jackknifedPpiBranches]);
  if (group.every((r) => r.rounds.every((round) => round.byEstimator?.soft && round.byEstimator?.["ppi-jackknife"] && round.byEstimator?.guarded)))
    replayed.push(
      ...[0.25, 0.5, 0.75].map((w): [string, Pick] => [`the recorded guard where weak or diffuse, else soft ${w} : ppi-jackknife ${1 - w}`, softPpiAverage(w)]),
      ["soft 0.5 : ppi-jackknife 0.5 wherever not diffuse (weak rounds too)", softPpiAverage(0.5, "everywhere")],
      ["the recorded guard, soft 0.5 : ppi-jackknife 0.5 only where guarded-pick left the soft table for ppi (not weak)", softPpiAverage(0.5, { accuracyBelow: 0 })],
      ...[0.7, 0.8, 0.9].map((a): [string, Pick] => [`... and where it kept soft but the recent accuracy is below ${a}`, softPpiAverage(0.5, { accuracyBelow: a })]),
    );
  if (group.every((r) => bundles.has(r.bundle) && r.rounds.every((round) => round.byEstimator?.soft && round.byEstimator?.ppi && round.byEstimator?.["ppi-jackknife"])))
    replayed.push(
      ...[1, 2, 5].map((t): [string, Pick] => [`the recorded guard where weak or diffuse, else soft 0.5 : ppi 0.5 from ${t} labels per cell on (jackknifed before)${t === 1 ? " (guarded since 2026-12-05)" : ""}`, plainPpiMeanFrom(t)]),
    );
  if (replayable && group.every((r) => residualReadings.has(r)))
    replayed.push(
      ...[2, 2.5, 3, 4].map((x): [string, Pick] => [`guard G = 0.25 + table-space reading > ${x}`, residualGuard((g) => g.reading > x)]),
      ...[2, 3].map((z): [string, Pick] => [`guard G = 0.25 + NMI-projected residual z > ${z}`, residualGuard((g) => g.nmiZ > z)]),
    );
  if (group.every((r) => bundles.has(r.bundle) && r.rounds.every((round) => round.byEstimator?.ppi && round.byEstimator?.soft))) {
    // runs made since be9674c: the replayed guard should report what the run's own guard of that form reported (`guarded`
    // until the gap gate, `guarded-no-gap` since)
    const code = ppiOncePerCell(PLENTIFUL_LABELS_PER_CELL);
    let differ = 0;
    let all = 0;
    for (const run of group)
      for (const [i, r] of run.rounds.entries())
        for (const c of run.config.clusterings as string[]) {
          const picked = code(r, run.rounds.slice(0, i), c, run);
          const nmi = typeof picked === "number" ? picked : r.byEstimator![picked].estimate[c].nmi;
          all++;
          if (nmi !== (r.byEstimator!["guarded-no-gap"] ?? r.byEstimator!.guarded).estimate[c].nmi) differ++;
        }
    process.stderr.write(`${label}: the replayed guarded-no-gap reports another NMI than the recorded one (guarded in runs before the gap gate) in ${differ} of ${all} (round, clustering) pairs (for runs made since be9674c, 0 but for the kept over-confidence reading, which the replay reads from each earlier round's latest window only where the code read every window)\n`);
  }
  // the last column's reference: the guard before issue #23's over-confidence reading, or the run's own guard where it cannot be replayed
  const before = group.map((r) => aecOf(r, budget, replayable ? guard(null) : () => "guarded"));
  for (const [name, pick] of [...recorded, ...replayed]) {
    const a = group.map((r) => aecOf(r, budget, pick));
    const d = a.map((v, i) => v - random[i]);
    const b = a.map((v, i) => v - before[i]);
    const seeds = group.map((r) => r.config.seed).join(",");
    console.log(
      `| ${label} | ${name} | ${group.length} (${seeds}) | ${mean(a).toFixed(4)} (${mean(random).toFixed(4)}) | ${(mean(a) / mean(random)).toFixed(2)}x | ${mean(d).toFixed(4)} ± ${se(d).toFixed(4)} | ${d.filter((v) => v < 0).length}/${d.length} | ${mean(b).toFixed(4)} ± ${se(b).toFixed(4)} |`,
    );
  }
}
