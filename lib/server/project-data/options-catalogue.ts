import { designsFor } from "@/lib/cereal/method/acquire";
import { ACQUISITIONS, type Acquisition } from "@/lib/cereal/method/acquisition";
import type { Design } from "@/lib/cereal/method/designs";
import { ESTIMATORS } from "@/lib/cereal/method/estimators";
import { RECOMMENDED, type Configuration } from "@/lib/cereal/method/recommended";
import { PAIR_DESIGNS, RECOMMENDED_PAIRS, type PairDesign } from "@/lib/cereal/pairwise/pair-designs";
import { z } from "zod";

/** how the label page asks a clusterwise item's class: pick from the list, or verify one class at a time (Project.labelBy) */
export const LABEL_BY = ["pick", "verify"] as const;
export const labelBySchema = z.enum(LABEL_BY, `labelBy is ${LABEL_BY.join(" or ")}: how a clusterwise project's label page asks for a class (from the list, or one class at a time).`);

/**
 * What a project (or a simulation of it) may be configured with: the acquisition functions, the
 * sampling designs each allows, the estimators, and the recommended configuration. The settings
 * and simulation pages take their choices from here.
 */
export interface OptionsCatalogue {
  readonly acquisitions: Acquisition[];
  readonly designs: Record<Acquisition, Design[]>;
  readonly estimators: string[];
  readonly recommended: Configuration;
  /** a pairwise project's pair designs, and the recommended one with its uniform share */
  readonly pairDesigns: PairDesign[];
  readonly recommendedPairs: typeof RECOMMENDED_PAIRS;
}

export function optionsCatalogue(): OptionsCatalogue {
  return {
    acquisitions: [...ACQUISITIONS],
    designs: Object.fromEntries(ACQUISITIONS.map((a) => [a, [...designsFor(a)]])) as Record<Acquisition, Design[]>,
    estimators: Object.keys(ESTIMATORS),
    recommended: { ...RECOMMENDED },
    pairDesigns: [...PAIR_DESIGNS],
    recommendedPairs: { ...RECOMMENDED_PAIRS },
  };
}

/** The project settings a new project starts with: the recommended configuration (no schema default holds them). */
export function recommendedProjectSettings() {
  const { acquisition, design, fixmatch, fixmatchSteps, fixmatchWarmSteps, residualWhenCalibrated, estimator } = RECOMMENDED;
  return { acquisition, design, fixmatch, fixmatchSteps, fixmatchWarmSteps, residualWhenCalibrated, estimator, ...RECOMMENDED_PAIRS };
}
