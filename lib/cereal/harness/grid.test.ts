import { describe, expect, it } from "vitest";
import { aecTable, meanAndStandardError, paperGrid, parseJobLines, type GridRun } from "./grid";

const metrics = (v: number) => ({ nmi: v, ami: v, ari: v, acc: v, vMeasure: v, fmi: v, ap: v });
const run = (label: string, seed: number, aec: number): GridRun => ({
  key: `k|${label}|${seed}`,
  label,
  seed,
  aec: metrics(aec),
  aecPer1000Labels: metrics(aec / 20),
  finalAbsErr: metrics(0),
  seconds: 1,
});

describe("the paper's grid", () => {
  it("has the six acquisitions alone and Random, Soft NMI, Hard NMI with FixMatch, PL and both: 15 configurations", () => {
    const grid = paperGrid();
    expect(grid).toHaveLength(15);
    expect(grid.slice(0, 6).every((g) => !g.fixmatch && !g.pseudo)).toBe(true);
    expect(grid.find((g) => g.label === "Hard NMI + FixMatch + PL")).toEqual({
      label: "Hard NMI + FixMatch + PL",
      acquisition: "hardnmi",
      fixmatch: true,
      pseudo: true,
    });
    expect(new Set(grid.map((g) => g.label)).size).toBe(15);
  });
});

describe("job files and the AEC table", () => {
  it("drops a torn last line", () => {
    const text = `${JSON.stringify(run("Random", 0, 1))}\n${JSON.stringify(run("Random", 1, 2))}\n{"key":"k|Ran`;
    expect(parseJobLines(text).map((r) => r.seed)).toEqual([0, 1]);
  });

  it("mean ± standard error: 0.1, 0.2, 0.3 gives 0.2 ± 0.0577", () => {
    expect(meanAndStandardError([0.1, 0.2, 0.3])).toBe("0.2000 ± 0.0577");
    expect(meanAndStandardError([0.5])).toBe("0.5000");
    expect(meanAndStandardError([])).toBe("-");
  });

  it("prints one row per configuration with its runs", () => {
    const table = aecTable(paperGrid(), [run("Random", 0, 0.1), run("Random", 1, 0.3), run("Hard NMI + PL", 0, 0.05)], ["nmi", "ari"], "rounds");
    const lines = table.split("\n");
    expect(lines[0]).toBe("| configuration | runs | AEC nmi | AEC ari |");
    expect(lines).toContain("| Random | 2 | 0.2000 ± 0.1000 | 0.2000 ± 0.1000 |");
    expect(lines).toContain("| Hard NMI + PL | 1 | 0.0500 | 0.0500 |");
    expect(lines).toContain("| BALD | 0 | - | - |");
    expect(aecTable(paperGrid(), [run("Random", 0, 0.1)], ["nmi"], "per1000")).toContain("| Random | 1 | 0.0050 |");
  });
});
