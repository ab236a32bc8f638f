/**
 * Choosing the surrogate's family by out-of-sample log-loss (issue #23; ESTIMATORS.md, "Choosing the
 * surrogate's family"). Every candidate is fitted each round; before the refit, each candidate's
 * previous model predicts the rows labeled since its last fit, which it never saw (the previous-model
 * argument of out-of-sample.ts), and its mean log-loss over all such rows so far is its score. The
 * round's predictions are the candidate with the lowest score; the first candidate until one has a score.
 *
 * The scores live in this object, so one surrogate must see every round in order: the simulator's runs
 * do, the app's rounds (a fresh surrogate per job) do not, and the app does not offer it.
 */
import type { FitOptions, FitProgress, FitReport, LabeledRows, Surrogate, SurrogateFactory } from "../method/surrogate";

/** log-loss is clipped here, so that one confident miss counts as ln(1e6) = 13.8, not infinity */
const MIN_PROBABILITY = 1e-6;

export interface FamilyScore {
  readonly name: string;
  /** mean out-of-sample log-loss over the rows scored so far; null before any */
  readonly logLoss: number | null;
  readonly rows: number;
}

export interface SelectingSurrogate extends Surrogate {
  /** the candidate whose predictions the surrogate gives now */
  chosen(): string;
  scores(): FamilyScore[];
}

/** the mean log-loss of proba (rows x C) at the labels */
export function meanLogLoss(proba: Float32Array, labels: Int32Array, numClasses: number): number {
  let sum = 0;
  for (let i = 0; i < labels.length; i++) sum -= Math.log(Math.max(proba[i * numClasses + labels[i]], MIN_PROBABILITY));
  return sum / labels.length;
}

export function selectingSurrogateFactory(candidates: Record<string, SurrogateFactory>): (embeddings: Parameters<SurrogateFactory>[0], numClasses: number) => Promise<SelectingSurrogate> {
  const names = Object.keys(candidates);
  if (names.length === 0) throw new Error("selectingSurrogateFactory: name at least one candidate");
  return async (embeddings, numClasses) => {
    const surrogates = await Promise.all(names.map((name) => candidates[name](embeddings, numClasses)));
    const lossSums = new Float64Array(names.length);
    let scored = 0;
    let seen = new Uint8Array(embeddings.n);
    let fittedOnce = false;
    let chosen = 0;
    const scores = (): FamilyScore[] => names.map((name, k) => ({ name, logLoss: scored > 0 ? lossSums[k] / scored : null, rows: scored }));
    return {
      async fit(labeled: LabeledRows, unlabeled: Int32Array, options: FitOptions, onProgress?: (progress: FitProgress) => void): Promise<FitReport> {
        if (fittedOnce) {
          const fresh: number[] = [];
          labeled.rows.forEach((row, j) => seen[row] === 0 && fresh.push(j));
          if (fresh.length > 0) {
            const rows = Int32Array.from(fresh, (j) => labeled.rows[j]);
            const labels = Int32Array.from(fresh, (j) => labeled.labels[j]);
            for (const [k, surrogate] of surrogates.entries()) lossSums[k] += meanLogLoss(await surrogate.predictProba(rows), labels, numClasses) * rows.length;
            scored += rows.length;
          }
        }
        seen = new Uint8Array(embeddings.n);
        for (const row of labeled.rows) seen[row] = 1;
        const reports: FitReport[] = [];
        for (const [k, surrogate] of surrogates.entries()) {
          // the warm-start weights are the first candidate's (weights() hands out only its own)
          const own = k === 0 ? options : { ...options, initialWeights: undefined };
          reports.push(await surrogate.fit(labeled, unlabeled, own, k === 0 ? onProgress : undefined));
        }
        fittedOnce = true;
        if (scored > 0) chosen = lossSums.indexOf(Math.min(...lossSums));
        const report = reports[chosen];
        return { ...report, backend: `${names[chosen]}:${report.backend}`, trainSeconds: reports.reduce((sum, r) => sum + r.trainSeconds, 0) };
      },
      predictProba: (rows) => surrogates[chosen].predictProba(rows),
      predictProbaMc: (rows, passes, seed) => surrogates[chosen].predictProbaMc(rows, passes, seed),
      weights: surrogates[0].weights ? () => surrogates[0].weights!() : undefined,
      chosen: () => names[chosen],
      scores,
      dispose() {
        for (const surrogate of surrogates) surrogate.dispose();
      },
    };
  };
}
