/**
 * `--seconds-per-answer S | project:PROJECT` (simulate, table --grid pairwise): the pace that turns
 * AEC per 1000 answers into AEC per annotator-hour. A number is taken as given; `project:PROJECT`
 * (an id or an exact name in the configured data folder) takes the median seconds per answer of
 * that project's timed answers (lib/server/labeling/answer-time.ts, the figure the dashboard's
 * labels panel shows), which must be of the simulated mode.
 */
import { projectAnswerTime } from "@/lib/server/labeling/answer-time";
import { migrateConfiguredDatabase } from "@/lib/server/migrate";
import { CommandError, service } from "./project-commands";

export interface AnswerPace {
  readonly seconds: number;
  /** where the figure comes from, for the output */
  readonly source: string;
}

const PROJECT = "project:";

export async function answerPace(value: string | undefined, mode: "clusterwise" | "pairwise"): Promise<AnswerPace | undefined> {
  if (value === undefined) return undefined;
  if (!value.startsWith(PROJECT)) {
    const seconds = Number(value);
    if (!(Number.isFinite(seconds) && seconds > 0)) throw new CommandError(`--seconds-per-answer must be a positive number of seconds or project:PROJECT, got '${value}'`);
    return { seconds, source: "given" };
  }
  await migrateConfiguredDatabase();
  const time = await service(() => projectAnswerTime(value.slice(PROJECT.length)));
  const project = `project ${time.name} (${time.projectId})`;
  if (time.mode !== mode) throw new CommandError(`--seconds-per-answer: ${project} is ${time.mode}, its answers are not ${mode} ones; pass a ${mode} project or a number of seconds`);
  if (time.medianSeconds === null)
    throw new CommandError(`--seconds-per-answer: ${project} has no timed answers yet (the label page times each answer); label some there, or pass a number of seconds`);
  return { seconds: time.medianSeconds, source: `median of the ${time.timedAnswers} timed answers of ${project}` };
}
