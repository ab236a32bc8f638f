/** A round step's output, which the steps after it read; running them out of order is a programming error. */
export function stepDone<T>(value: T | undefined, step: string): T {
  if (value === undefined) throw new Error(`The round's ${step} step has not run.`);
  return value;
}
