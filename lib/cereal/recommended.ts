/**
 * The recommended configuration (issue #12): the sampling design, trainer and estimator chosen
 * together from the estimators grid (`cereal table --grid estimators`), and the default of new
 * projects (prisma/schema.prisma's Project defaults). Chosen because the prediction-powered table
 * is unbiased under any probability design whatever the surrogate, so a weak surrogate costs
 * variance, never bias; measurements in lib/cereal/ESTIMATORS.md.
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
