import type { Acquisition } from "@/lib/cereal/method/acquisition";
import type { Design } from "@/lib/cereal/method/designs";
import { estimatorByName } from "@/lib/cereal/method/estimators";
import type { RoundOptions } from "@/lib/cereal/method/round";
import { PAIR_DESIGN_SAMPLING, type PairDesign } from "@/lib/cereal/pairwise/pair-designs";
import { runSettings, type RunSettingKey } from "../projects/run-settings";

/**
 * What a round runs with, as recorded on its Round row: the project's run settings, and for a
 * pairwise project the pair design its acquisition names.
 */

/**
 * The pair design of a project: there is no separate setting; the acquisition the project already
 * has names it. Random and the NMI-targeted acquisitions (Hard NMI, the default, and Soft NMI)
 * draw uniform pairs, which gave the lowest AEC of the three designs (issue #10 note); the
 * uncertainty acquisitions (MaxEntropy, BALD) draw `uncertain` pairs, CrossEntropy (a cluster
 * against its class) `anchor` pairs, each with half of every batch uniform (UNIFORM_SHARE).
 */
export function pairDesignFor(acquisition: string): PairDesign {
  const byAcquisition: Record<Acquisition, PairDesign> = {
    random: "random",
    hardnmi: "random",
    softnmi: "random",
    maxentropy: "uncertain",
    bald: "uncertain",
    crossentropy: "anchor",
  };
  return byAcquisition[acquisition as Acquisition] ?? "random";
}

/**
 * Share of uniform pairs in an uncertain or anchor batch: trained on the design's pairs alone,
 * MCL merged classes on digits (NMI AEC 0.43-0.44 vs 0.18-0.20 with half uniform, 500-pair batches).
 */
export const UNIFORM_SHARE = 0.5;

export function roundConfig<P extends Record<RunSettingKey, unknown> & { mode: string; acquisition: string; design: string }>(project: P) {
  const pairDesign = project.mode === "pairwise" ? pairDesignFor(project.acquisition) : null;
  return {
    ...runSettings(project),
    mode: project.mode,
    // a pairwise project draws pairs: the sampling its pair design implies
    design: pairDesign ? PAIR_DESIGN_SAMPLING[pairDesign] : (project.design as Design),
    ...(pairDesign ? { pairDesign, uniformShare: pairDesign === "random" ? 1 : UNIFORM_SHARE, pseudoLabels: "all" } : {}),
  };
}

/** The settings a clusterwise round's fit and estimate read, as the worker and `cereal recompute` both build them. */
export function clusterwiseRoundOptions(settings: { acquisition: string; design: string; estimator: string; fixmatch: boolean; fixmatchSteps: number }, seed: number) {
  return {
    acquisition: settings.acquisition as Acquisition,
    design: settings.design as Design,
    estimator: estimatorByName(settings.estimator),
    fixmatch: settings.fixmatch,
    steps: settings.fixmatchSteps,
    seed,
    // With the guarded estimator, FixMatch falls back to supervised training while earlier models
    // fail on the new labels (lib/cereal/method/round.ts); the other estimators train as configured.
    trainerGuard: settings.estimator === "guarded",
  } satisfies Partial<RoundOptions>;
}
