import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { decimalsForWidth, roundEstimate } from "./interval-rounding";
import { latexEscape } from "./latex";
import { rankingCsv, rankingLatex, rankingMarkdown, type RankingTable } from "./ranking-table";

const table: RankingTable = {
  metric: "NMI",
  labelFreeName: "Silhouette (ACE)",
  level: 0.9,
  rows: [
    { clustering: "kmeans_k10", estimate: 0.61234, lo: 0.5512, hi: 0.6788, pBest: 0.2161, labels: 40, labelFree: 0.18234 },
    { clustering: "gmm 50% & more_{x}", estimate: 0.70449, lo: 0.70012, hi: 0.71234, pBest: 0.7839, labels: 40, labelFree: null },
    { clustering: "labels-only", estimate: 0.3, lo: null, hi: null, pBest: null, labels: 40, labelFree: -0.05 },
  ],
};

/** Braces balance when every unescaped { has its }, never closing below zero. */
function bracesBalanced(tex: string): boolean {
  let depth = 0;
  for (let i = 0; i < tex.length; i++) {
    if (tex[i] === "\\") {
      i++; // \{ and \} are literal braces
      continue;
    }
    if (tex[i] === "{") depth++;
    if (tex[i] === "}" && --depth < 0) return false;
  }
  return depth === 0;
}

describe("rounding to the interval's width", () => {
  it("keeps two significant digits of the width", () => {
    expect(decimalsForWidth(0.1276)).toBe(2);
    expect(decimalsForWidth(0.01222)).toBe(3);
    expect(decimalsForWidth(0.5)).toBe(2);
    expect(decimalsForWidth(3)).toBe(1);
    expect(decimalsForWidth(null)).toBe(3);
    expect(decimalsForWidth(0)).toBe(3);
  });

  it("rounds the estimate and both bounds alike", () => {
    expect(roundEstimate(0.61234, 0.5512, 0.6788)).toEqual({ estimate: "0.61", lo: "0.55", hi: "0.68", decimals: 2 });
    expect(roundEstimate(0.70449, 0.70012, 0.71234)).toEqual({ estimate: "0.704", lo: "0.700", hi: "0.712", decimals: 3 });
    expect(roundEstimate(-0.0001, -0.2, 0.2).estimate).toBe("0.00");
  });
});

describe("the ranking table", () => {
  it("is booktabs LaTeX with balanced braces and escaped names", () => {
    const tex = rankingLatex(table, "NMI of 3 clusterings (90% intervals) & more", "cereal-ranking-nmi");
    expect(bracesBalanced(tex)).toBe(true);
    expect(tex).toContain("\\toprule");
    expect(tex).toContain("\\midrule");
    expect(tex).toContain("\\bottomrule");
    expect(tex.match(/\\begin\{(\w+)\}/g)).toEqual(["\\begin{table}", "\\begin{tabular}"]);
    expect(tex.match(/\\end\{(\w+)\}/g)).toEqual(["\\end{tabular}", "\\end{table}"]);
    expect(tex).toContain("gmm 50\\% \\& more\\_\\{x\\} & 0.704 & [0.700, 0.712] & 0.78 & 40 & -- \\\\");
    expect(tex).toContain("kmeans\\_k10 & 0.61 & [0.55, 0.68] & 0.22 & 40 & 0.182 \\\\");
    expect(tex).toContain("\\caption{NMI of 3 clusterings (90\\% intervals) \\& more}");
    // every data row has the header's six columns: five unescaped & separators
    const rows = tex.split("\n").filter((l) => l.trim().endsWith("\\\\"));
    for (const row of rows) expect(row.replace(/\\&/g, "").split("&")).toHaveLength(6);
    // no unescaped % would comment out the rest of a line
    for (const line of tex.split("\n")) expect(line).not.toMatch(/(^|[^\\])%/);
  });

  it("escapes every LaTeX special character", () => {
    expect(latexEscape("a_b%c&d$e#f{g}h~i^j\\k")).toBe("a\\_b\\%c\\&d\\$e\\#f\\{g\\}h\\textasciitilde{}i\\textasciicircum{}j\\textbackslash{}k");
  });

  it("prints the same rounded numbers, best first, as Markdown and CSV", () => {
    const md = rankingMarkdown(table).trim().split("\n");
    expect(md[0]).toBe("| Clustering | NMI | 90% interval | P(best) | Labels | Silhouette (ACE) |");
    expect(md[2]).toBe("| gmm 50% & more_{x} | 0.704 | [0.700, 0.712] | 0.78 | 40 | – |");
    expect(md[3]).toBe("| kmeans_k10 | 0.61 | [0.55, 0.68] | 0.22 | 40 | 0.182 |");
    expect(md[4]).toBe("| labels-only | 0.300 | – | – | 40 | -0.050 |");
    const csv = parse(rankingCsv(table), { columns: true }) as Record<string, string>[];
    expect(csv.map((r) => r.clustering)).toEqual(["gmm 50% & more_{x}", "kmeans_k10", "labels-only"]);
    expect(csv[1]).toEqual({ clustering: "kmeans_k10", estimate: "0.61", lo: "0.55", hi: "0.68", p_best: "0.22", labels: "40", label_free: "0.182" });
  });

  it("escapes a pipe in a Markdown cell", () => {
    const md = rankingMarkdown({ ...table, rows: [{ ...table.rows[0], clustering: "a|b" }] });
    expect(md).toContain("| a\\|b |");
  });
});
