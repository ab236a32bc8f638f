/**
 * The recommended configuration (issue #12): the sampling design, trainer and estimator chosen
 * together from the estimators grid (`cereal table --grid estimators`), and the default of new
 * projects (prisma/schema.prisma's Project defaults). Hard NMI puts the labels where the
 * clusterings and the surrogate disagree, so FixMatch learns those regions and the soft table's
 * bias shrinks; drawn proportionally it stays a probability sample, so the prediction-powered
 * table behind the guarded estimator's intervals (and its weak-surrogate fallback) stays unbiased.
 * Measured (3-seed grid and 20 seeds, digits and demo) in lib/cereal/ESTIMATORS.md.
 */
import type { Acquisition } from "./acquisition";
import type { Design } from "./designs";

export interface Configuration {
  readonly acquisition: Acquisition;
  readonly design: Design;
  readonly fixmatch: boolean;
  readonly estimator: string;
  /** FixMatch falls back to supervised training while the surrogate is weak (RoundOptions.trainerGuard) */
  readonly trainerGuard: boolean;
}

export const RECOMMENDED: Configuration = {
  acquisition: "hardnmi",
  design: "proportional",
  fixmatch: true,
  estimator: "guarded",
  trainerGuard: true,
};
