/**
 * Grids of simulations and their AEC tables (`cereal table`). The paper's grid (its Table 1
 * ablation): the six acquisitions alone (labels-only estimate, supervised surrogate), and Random,
 * Soft NMI and Hard NMI with FixMatch, with pseudo-labels, and with both.
 */
import type { MetricKey } from "@/lib/metrics";
import { ACQUISITIONS, type Acquisition } from "../method/acquisition";

export interface GridConfig {
  readonly label: string;
  readonly acquisition: Acquisition;
  readonly fixmatch: boolean;
  /** estimate with labels + argmax pseudo-labels (else the labels alone) */
  readonly pseudo: boolean;
}

/** One finished run of a grid, as a job file line. */
export interface GridRun {
  /** the run's identity: settings, configuration and seed; a resumed job skips the keys it has */
  readonly key: string;
  readonly label: string;
  readonly seed: number;
  readonly aec: Record<MetricKey, number>;
  readonly aecPer1000Labels: Record<MetricKey, number>;
  readonly finalAbsErr: Record<MetricKey, number>;
  readonly seconds: number;
}

export const PAPER_NAMES: Record<Acquisition, string> = {
  random: "Random",
  maxentropy: "MaxEntropy",
  bald: "BALD",
  crossentropy: "CrossEntropy",
  softnmi: "Soft NMI",
  hardnmi: "Hard NMI",
  residual: "Residual s.d. (active inference)",
};

/** the paper's six acquisitions (the residual score is issue #23's, not the paper's) */
const PAPER_ACQUISITIONS = ACQUISITIONS.filter((a) => a !== "residual");

export function paperGrid(): GridConfig[] {
  const grid: GridConfig[] = PAPER_ACQUISITIONS.map((a) => ({ label: PAPER_NAMES[a], acquisition: a, fixmatch: false, pseudo: false }));
  for (const a of ["random", "softnmi", "hardnmi"] as const) {
    grid.push({ label: `${PAPER_NAMES[a]} + FixMatch`, acquisition: a, fixmatch: true, pseudo: false });
    grid.push({ label: `${PAPER_NAMES[a]} + PL`, acquisition: a, fixmatch: false, pseudo: true });
    grid.push({ label: `${PAPER_NAMES[a]} + FixMatch + PL`, acquisition: a, fixmatch: true, pseudo: true });
  }
  return grid;
}

/** Parses a job file's text; a torn last line (a job killed mid-append) is dropped, so that run is simply redone. */
export function parseJobLines<T = GridRun>(text: string): T[] {
  const runs: T[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      runs.push(JSON.parse(line) as T);
    } catch {
      // an interrupted append
    }
  }
  return runs;
}

/** "mean ± standard error" (sample standard deviation / sqrt(n)) */
export function meanAndStandardError(values: readonly number[], digits = 4): string {
  const n = values.length;
  if (n === 0) return "-";
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return mean.toFixed(digits);
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  return `${mean.toFixed(digits)} ± ${Math.sqrt(variance / n).toFixed(digits)}`;
}

/** The markdown AEC table: one row per configuration, one column per metric. */
export function aecTable(grid: readonly GridConfig[], runs: readonly GridRun[], metrics: readonly MetricKey[], unit: "rounds" | "per1000"): string {
  const head = `| configuration | runs | ${metrics.map((m) => `AEC ${m}`).join(" | ")} |`;
  const rule = `|---|---|${metrics.map(() => "---|").join("")}`;
  const rows = grid.map((g) => {
    const mine = runs.filter((r) => r.label === g.label);
    const cells = metrics.map((m) => meanAndStandardError(mine.map((r) => (unit === "rounds" ? r.aec[m] : r.aecPer1000Labels[m]))));
    return `| ${g.label} | ${mine.length} | ${cells.join(" | ")} |`;
  });
  const note = `AEC of |estimate - truth|, x in ${unit === "rounds" ? "rounds (one batch of labels)" : "thousands of labels"}; mean ± standard error over seeds.`;
  return [head, rule, ...rows, "", note].join("\n");
}
