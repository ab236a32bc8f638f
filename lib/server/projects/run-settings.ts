/**
 * The settings a round runs with, as recorded on every round and in the configuration export:
 * with them, the project's seed and the code version, a run can be reproduced.
 */
export const RUN_SETTING_KEYS = ["acquisition", "design", "estimator", "fixmatch", "fixmatchSteps", "seedSize", "batchSize", "budget", "overlap"] as const;
export type RunSettingKey = (typeof RUN_SETTING_KEYS)[number];

export function runSettings<P extends Record<RunSettingKey, unknown>>(project: P): Pick<P, RunSettingKey> {
  return Object.fromEntries(RUN_SETTING_KEYS.map((k) => [k, project[k]])) as Pick<P, RunSettingKey>;
}
