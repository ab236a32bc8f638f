/**
 * Choosing the surrogate's family (issue #23; ESTIMATORS.md, "Choosing the surrogate's family"). Every
 * candidate is fitted each round; before the refit, each candidate's previous model predicts the rows
 * labeled since its last fit, which it never saw (the previous-model argument of out-of-sample.ts), and
 * a family score (family-scores.ts: out-of-sample log-loss by default, the soft table's cell bias, or both agreeing)
 * accumulates over all such rows so far. The round's predictions are the candidate with the lowest
 * score; the first candidate until one has a score. Given the clusterings (`diagnose`), each fit's report
 * also says, per candidate, what its previous model scored on this round's new rows under both scores and
 * the NMI of its own soft table (FitReport.candidates): bench/family-choice.ts replays choosers from them.
 *
 * The scores live in this object, so one surrogate must see every round in order: the simulator's runs
 * do, the app's rounds (a fresh surrogate per job) do not, and the app does not offer it.
 */
import { nmiFromTable } from "@/lib/metrics";
import { softTable } from "../method/estimators-soft";
import type { TestClustering } from "../method/problem";
import type { CandidateReport, FitOptions, FitProgress, FitReport, LabeledRows, Surrogate, SurrogateFactory } from "../method/surrogate";
import { cellBiasScore, logLossScore, meanLogLoss, type FamilyScorerFactory, type FreshRows } from "./family-scores";

export interface FamilyScore {
  readonly name: string;
  /** the family score over the rows scored so far (lower is better); null before any */
  readonly score: number | null;
  readonly rows: number;
}

export interface SelectingSurrogate extends Surrogate {
  /** the candidate whose predictions the surrogate gives now */
  chosen(): string;
  scores(): FamilyScore[];
}

/** NMI of each clustering's soft table (the soft estimator's: the labeled rows with their labels, pi over the unlabeled ones) */
function softNmi(clusterings: readonly TestClustering[], n: number, labeled: LabeledRows, unlabeled: Int32Array, proba: Float32Array, numClasses: number): Record<string, number> {
  // the soft table reads neither the draws nor the out-of-sample record
  const input = { n, numClasses, labeled, unlabeled, proba, draws: [] };
  return Object.fromEntries(clusterings.map((c) => [c.name, nmiFromTable(softTable(input, c))]));
}

export function selectingSurrogateFactory(
  candidates: Record<string, SurrogateFactory>,
  familyScore: FamilyScorerFactory = logLossScore,
  diagnose?: readonly TestClustering[],
): (embeddings: Parameters<SurrogateFactory>[0], numClasses: number) => Promise<SelectingSurrogate> {
  const names = Object.keys(candidates);
  if (names.length === 0) throw new Error("selectingSurrogateFactory: name at least one candidate");
  return async (embeddings, numClasses) => {
    const surrogates = await Promise.all(names.map((name) => candidates[name](embeddings, numClasses)));
    const score = familyScore(names.length, numClasses);
    let seen = new Uint8Array(embeddings.n);
    let fittedOnce = false;
    let chosen = 0;
    const scores = (): FamilyScore[] => {
      const values = score.scores();
      return names.map((name, k) => ({ name, score: values[k], rows: score.rows() }));
    };
    return {
      async fit(labeled: LabeledRows, unlabeled: Int32Array, options: FitOptions, onProgress?: (progress: FitProgress) => void): Promise<FitReport> {
        let batchScores: Record<string, number | null>[] = surrogates.map(() => ({ "log-loss": null, "cell bias": null }));
        if (fittedOnce) {
          const fresh: number[] = [];
          labeled.rows.forEach((row, j) => seen[row] === 0 && fresh.push(j));
          if (fresh.length > 0) {
            const rows = Int32Array.from(fresh, (j) => labeled.rows[j]);
            const labels = Int32Array.from(fresh, (j) => labeled.labels[j]);
            const inclusion = options.inclusion ? Float64Array.from(fresh, (j) => options.inclusion![j]) : null;
            const probas: Float32Array[] = [];
            for (const surrogate of surrogates) probas.push(await surrogate.predictProba(rows));
            const freshRows: FreshRows = { rows, labels, inclusion, pool: embeddings.n - (labeled.rows.length - fresh.length) };
            score.add(freshRows, probas);
            if (diagnose) {
              const cells = cellBiasScore(diagnose)(surrogates.length, numClasses);
              cells.add(freshRows, probas);
              const bias = cells.scores();
              batchScores = probas.map((proba, k) => ({ "log-loss": meanLogLoss(proba, labels, numClasses), "cell bias": bias[k] }));
            }
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
        const values = score.scores();
        if (values.every((v) => v !== null)) chosen = values.indexOf(Math.min(...(values as number[])));
        const report = reports[chosen];
        const merged = { ...report, backend: `${names[chosen]}:${report.backend}`, trainSeconds: reports.reduce((sum, r) => sum + r.trainSeconds, 0) };
        if (!diagnose) return merged;
        const reported: CandidateReport[] = [];
        for (const [k, surrogate] of surrogates.entries())
          reported.push({ name: names[k], batchScores: batchScores[k], softNmi: softNmi(diagnose, embeddings.n, labeled, unlabeled, await surrogate.predictProba(unlabeled), numClasses) });
        return { ...merged, candidates: reported };
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
