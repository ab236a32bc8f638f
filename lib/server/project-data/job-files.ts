import type { ProjectFolder } from "./paths";
import { readProjectJson, writeProjectFile } from "./folder";

/**
 * Results heavy jobs keep in the project folder: a simulation's whole run
 * (simulations/<job id>.json) and the label-free scores per measure (label-free/MEASURE.json,
 * under the key of the clusterings and spaces they cover).
 */
const simulationFile = (jobId: string) => `simulations/${jobId}.json`;
const labelFreeFile = (measure: string) => `label-free/${measure}.json`;

export async function writeSimulationResult(project: ProjectFolder, jobId: string, result: unknown): Promise<string> {
  await writeProjectFile(project, simulationFile(jobId), JSON.stringify(result));
  return simulationFile(jobId);
}

export const readSimulationResult = (project: ProjectFolder, jobId: string): Promise<unknown> => readProjectJson(project, simulationFile(jobId));

/** The cached label-free result when it was computed for `key`; null otherwise (or when none is stored). */
export async function readLabelFreeCache<T>(project: ProjectFolder, measure: string, key: string): Promise<T | null> {
  try {
    const stored = await readProjectJson<{ key: string; result: T }>(project, labelFreeFile(measure));
    return stored.key === key ? stored.result : null;
  } catch {
    return null;
  }
}

export async function writeLabelFreeCache(project: ProjectFolder, measure: string, key: string, result: unknown) {
  await writeProjectFile(project, labelFreeFile(measure), JSON.stringify({ key, result }));
}
