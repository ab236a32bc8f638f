import type { Acquisition } from "@/lib/cereal/method/acquisition";
import type { Design } from "@/lib/cereal/method/designs";
import { estimatorByName } from "@/lib/cereal/method/estimators";
import type { RoundOptions } from "@/lib/cereal/method/round";
import { PAIR_DESIGN_SAMPLING, type PairDesign } from "@/lib/cereal/pairwise/pair-designs";
import { PAIRWISE_MEMBERS } from "@/lib/cereal/pairwise/pairwise-round";
import { runSettings, type PairSettingKey, type RunSettingKey } from "../projects/run-settings";

/**
 * What a round runs with, as recorded on its Round row: the project's run settings, and for a
 * pairwise project its pair design with the uniform share it draws (all of a random stage) and
 * the surrogate's fits per round.
 */
export function roundConfig<P extends Record<RunSettingKey | PairSettingKey, unknown> & { mode: string; design: string; pairDesign: string; pairUniformShare: number }>(project: P) {
  const pairDesign = project.mode === "pairwise" ? (project.pairDesign as PairDesign) : null;
  return {
    ...runSettings(project),
    mode: project.mode,
    // a pairwise project draws pairs: the sampling its pair design implies
    design: pairDesign ? PAIR_DESIGN_SAMPLING[pairDesign] : (project.design as Design),
    // the surrogate's fits per pairwise round, whose estimates it averages (recorded since issue #25; rounds without it fitted once)
    ...(pairDesign ? { uniformShare: pairDesign === "random" ? 1 : project.pairUniformShare, pseudoLabels: "all", fits: PAIRWISE_MEMBERS } : {}),
  };
}

/** The settings a clusterwise round's fit and estimate read, as the worker and `cereal recompute` both build them. */
export function clusterwiseRoundOptions(
  settings: { acquisition: string; design: string; estimator: string; fixmatch: boolean; fixmatchSteps: number; fixmatchWarmSteps?: number | null; residualWhenCalibrated?: number | null },
  seed: number,
) {
  return {
    acquisition: settings.acquisition as Acquisition,
    design: settings.design as Design,
    estimator: estimatorByName(settings.estimator),
    fixmatch: settings.fixmatch,
    steps: settings.fixmatchSteps,
    // rounds recorded before warm start existed have no fixmatchWarmSteps: from scratch, as they ran
    warmSteps: settings.fixmatchWarmSteps ?? undefined,
    // rounds recorded before the switch existed have no residualWhenCalibrated: `acquisition` in every round, as they drew
    residualWhenCalibrated: settings.residualWhenCalibrated ?? undefined,
    seed,
    // With the guarded estimator, FixMatch falls back to supervised training while earlier models
    // fail on the new labels (lib/cereal/method/round.ts); the other estimators train as configured.
    trainerGuard: settings.estimator === "guarded",
  } satisfies Partial<RoundOptions>;
}
