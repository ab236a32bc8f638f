/**
 * An ensemble of surrogates (issue #23): M members of one family, each fitted on the same rows from its
 * own seed, whose probabilities are averaged: the usual way to make a network's probabilities less
 * overconfident, which the soft table's bias reads directly. Measured with FixMatch, two members were as
 * overconfident as one (their pseudo-labels pull both to the same answers) and the estimates no better
 * (MEASUREMENTS.md "Issue #23: an ensemble of fits"); the simulator keeps it as `--fits N`.
 *
 * Member 0 fits with the round's own seed, so a one-member ensemble is its member. Members k > 0 fit
 * with deriveSeed(seed, "ensemble", k). Warm starts carry every member's weights, concatenated in member
 * order (`weights()`), and each member trains on from its own slice. An MC pass p is the mean of the
 * members' passes p.
 *
 * With `folds`, every labeled row belongs to one fold (a hash of its row index, so the same fold in every round) and
 * member k trains without fold k's labels (they join its unlabeled rows), so members differ by more than their seeds,
 * at the price of each seeing (M - 1) / M of the labels (measured, not adopted either).
 */
import { deriveSeed } from "../../random/named-streams";
import type { FitOptions, FitProgress, FitReport, LabeledRows, Surrogate, SurrogateFactory } from "./surrogate";

/** the mean of equally long arrays, elementwise */
function meanOf(parts: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(parts[0].length);
  for (const part of parts) for (let i = 0; i < out.length; i++) out[i] += part[i];
  for (let i = 0; i < out.length; i++) out[i] /= parts.length;
  return out;
}

/** each member's slice of concatenated weights; throws where the lengths do not add up */
function splitWeights(weights: Float32Array, lengths: readonly number[]): Float32Array[] {
  const total = lengths.reduce((sum, n) => sum + n, 0);
  if (weights.length !== total)
    throw new Error(`ensemble warm start: got ${weights.length} weights, the ${lengths.length} members hold ${total}; train this round from scratch (no initialWeights)`);
  let at = 0;
  return lengths.map((n) => weights.subarray(at, (at += n)));
}

/** the fold of a labeled row among `members` folds: fixed by its row index */
export function foldOf(row: number, members: number): number {
  return deriveSeed(row, "ensemble-fold") % members;
}

/** member k's training rows under folds: the labeled rows outside fold k, and the unlabeled rows with fold k's */
function withoutFold(labeled: LabeledRows, unlabeled: Int32Array, inclusion: Float64Array | undefined, k: number, members: number) {
  const keep: number[] = [];
  const held: number[] = [];
  labeled.rows.forEach((row, j) => (foldOf(row, members) === k ? held : keep).push(j));
  return {
    labeled: { rows: Int32Array.from(keep, (j) => labeled.rows[j]), labels: Int32Array.from(keep, (j) => labeled.labels[j]) },
    unlabeled: Int32Array.from([...unlabeled, ...held.map((j) => labeled.rows[j])]),
    inclusion: inclusion && Float64Array.from(keep, (j) => inclusion[j]),
  };
}

export interface EnsembleOptions {
  /** member k trains without the labels of fold k (default false: every member on every label) */
  readonly folds?: boolean;
}

export function ensembleSurrogateFactory(member: SurrogateFactory, members: number, options: EnsembleOptions = {}): SurrogateFactory {
  if (!Number.isInteger(members) || members < 1) throw new Error(`an ensemble needs a whole number of members, at least 1, got ${members}`);
  if (options.folds && members < 2) throw new Error("an ensemble with folds needs at least 2 members (each trains without one fold's labels)");
  return async (embeddings, numClasses) => {
    const surrogates: Surrogate[] = [];
    for (let k = 0; k < members; k++) surrogates.push(await member(embeddings, numClasses));
    const canCarry = surrogates.every((s) => s.weights !== undefined);
    const folds = options.folds === true;
    // each member's weight count, read once at the first warm start (a member's architecture never changes)
    let lengths: number[] | null = null;
    return {
      async fit(labeled: LabeledRows, unlabeled: Int32Array, fitOptions: FitOptions, onProgress?: (progress: FitProgress) => void): Promise<FitReport> {
        const initial = fitOptions.initialWeights
          ? splitWeights(fitOptions.initialWeights, (lengths ??= surrogates.map((s) => s.weights!().length)))
          : null;
        const reports: FitReport[] = [];
        for (const [k, surrogate] of surrogates.entries()) {
          const rows = folds ? withoutFold(labeled, unlabeled, fitOptions.inclusion, k, members) : { labeled, unlabeled, inclusion: fitOptions.inclusion };
          const own: FitOptions = { ...fitOptions, seed: k === 0 ? fitOptions.seed : deriveSeed(fitOptions.seed, "ensemble", k), initialWeights: initial?.[k], inclusion: rows.inclusion };
          // progress runs over the whole ensemble: member k's step s is step k * total + s
          const progress = onProgress && ((p: FitProgress) => onProgress({ step: k * p.total + p.step, total: members * p.total }));
          reports.push(await surrogate.fit(rows.labeled, rows.unlabeled, own, progress));
        }
        const losses = reports.map((r) => r.finalLoss).filter((v): v is number => v !== null);
        const masks = reports.map((r) => r.maskRate).filter((v): v is number => v !== null);
        return {
          backend: reports[0].backend,
          trainSeconds: reports.reduce((sum, r) => sum + r.trainSeconds, 0),
          steps: reports.reduce((sum, r) => sum + r.steps, 0),
          maskRate: masks.length === 0 ? null : masks.reduce((a, b) => a + b, 0) / masks.length,
          finalLoss: losses.length === 0 ? null : losses.reduce((a, b) => a + b, 0) / losses.length,
        };
      },
      async predictProba(rows) {
        const parts: Float32Array[] = [];
        for (const surrogate of surrogates) parts.push(await surrogate.predictProba(rows));
        return meanOf(parts);
      },
      async predictProbaMc(rows, passes, seed) {
        const parts: Float32Array[] = [];
        for (const [k, surrogate] of surrogates.entries()) parts.push(await surrogate.predictProbaMc(rows, passes, k === 0 ? seed : deriveSeed(seed, "ensemble", k)));
        return meanOf(parts);
      },
      weights: canCarry
        ? () => {
            const parts = surrogates.map((s) => s.weights!());
            const out = new Float32Array(parts.reduce((sum, p) => sum + p.length, 0));
            let at = 0;
            for (const part of parts) out.set(part, (at += part.length) - part.length);
            return out;
          }
        : undefined,
      dispose() {
        for (const surrogate of surrogates) surrogate.dispose();
      },
    };
  };
}
