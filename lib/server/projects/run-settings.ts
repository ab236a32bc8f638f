/**
 * The settings a round runs with, as recorded on every round and in the configuration export:
 * with them, the project's seed and the code version, a run can be reproduced. A pairwise project
 * adds its pair design and uniform share (a clusterwise project never reads them).
 */
export const RUN_SETTING_KEYS = ["acquisition", "design", "estimator", "fixmatch", "fixmatchSteps", "fixmatchWarmSteps", "residualWhenCalibrated", "seedSize", "batchSize", "budget", "overlap"] as const;
export type RunSettingKey = (typeof RUN_SETTING_KEYS)[number];
export const PAIR_SETTING_KEYS = ["pairDesign", "pairUniformShare"] as const;
export type PairSettingKey = (typeof PAIR_SETTING_KEYS)[number];

export function runSettings<P extends Record<RunSettingKey | PairSettingKey, unknown> & { mode: string }>(project: P): Pick<P, RunSettingKey> & Partial<Pick<P, PairSettingKey>> {
  const keys = project.mode === "pairwise" ? [...RUN_SETTING_KEYS, ...PAIR_SETTING_KEYS] : RUN_SETTING_KEYS;
  return Object.fromEntries(keys.map((k) => [k, project[k]])) as Pick<P, RunSettingKey> & Partial<Pick<P, PairSettingKey>>;
}
