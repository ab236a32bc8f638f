import { stringify } from "csv-stringify/sync";
import { fixed, roundEstimate } from "./interval-rounding";
import { latexEscape } from "./latex";
import { escapeXml } from "./svg";

/**
 * The ranking table of a report (one metric, the latest round): clustering, estimate, 90%
 * interval, P(best), labels used and the label-free score, best first, as LaTeX (booktabs),
 * Markdown and CSV. Every format prints the same rounded strings (interval-rounding.ts).
 */
export interface RankingRow {
  readonly clustering: string;
  readonly estimate: number;
  readonly lo: number | null;
  readonly hi: number | null;
  readonly pBest: number | null;
  readonly labels: number;
  /** the label-free score (ACE across spaces), null where it is not computed */
  readonly labelFree: number | null;
}

export interface RankingTable {
  /** e.g. "NMI" */
  readonly metric: string;
  /** e.g. "Silhouette (ACE)" */
  readonly labelFreeName: string;
  /** the interval's level, e.g. 0.9 */
  readonly level: number;
  readonly rows: readonly RankingRow[];
}

/** Best first; ties by name, so the order is reproducible. */
export function rankRows(rows: readonly RankingRow[]): RankingRow[] {
  return [...rows].sort((a, b) => b.estimate - a.estimate || a.clustering.localeCompare(b.clustering));
}

const PBEST_DECIMALS = 2;
const LABEL_FREE_DECIMALS = 3;

/** The printed cells of a row, shared by every format. */
function cells(row: RankingRow) {
  const r = roundEstimate(row.estimate, row.lo, row.hi);
  return {
    clustering: row.clustering,
    estimate: r.estimate,
    lo: r.lo ?? "",
    hi: r.hi ?? "",
    pBest: row.pBest === null ? "" : fixed(row.pBest, PBEST_DECIMALS),
    labels: String(row.labels),
    labelFree: row.labelFree === null ? "" : fixed(row.labelFree, LABEL_FREE_DECIMALS),
  };
}

const percent = (level: number) => `${Math.round(level * 100)}%`;
const interval = (lo: string, hi: string, dash: string) => (lo && hi ? `[${lo}, ${hi}]` : dash);

export function rankingCsv(table: RankingTable): string {
  const header = ["clustering", "estimate", "lo", "hi", "p_best", "labels", "label_free"];
  return stringify([header, ...rankRows(table.rows).map((row) => Object.values(cells(row)))]);
}

const markdownCell = (text: string) => text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|");

export function rankingMarkdown(table: RankingTable): string {
  const head = ["Clustering", table.metric, `${percent(table.level)} interval`, "P(best)", "Labels", table.labelFreeName];
  const lines = [`| ${head.map(markdownCell).join(" | ")} |`, "|:--|--:|:-:|--:|--:|--:|"];
  for (const row of rankRows(table.rows)) {
    const c = cells(row);
    lines.push(`| ${[c.clustering, c.estimate, interval(c.lo, c.hi, "–"), c.pBest || "–", c.labels, c.labelFree || "–"].map(markdownCell).join(" | ")} |`);
  }
  return lines.join("\n") + "\n";
}

/** A booktabs table (\usepackage{booktabs}); `label` becomes \label{tab:...}. */
export function rankingLatex(table: RankingTable, caption: string, label: string): string {
  const head = ["Clustering", table.metric, `${percent(table.level)} interval`, "$P(\\text{best})$", "Labels", table.labelFreeName];
  const body = rankRows(table.rows).map((row) => {
    const c = cells(row);
    return `${[latexEscape(c.clustering), c.estimate, interval(c.lo, c.hi, "--"), c.pBest || "--", c.labels, c.labelFree || "--"].join(" & ")} \\\\`;
  });
  return [
    "\\begin{table}[t]",
    "  \\centering",
    `  \\caption{${latexEscape(caption)}}`,
    `  \\label{tab:${label.replace(/[^A-Za-z0-9:-]/g, "-")}}`,
    "  \\begin{tabular}{lrcrrr}",
    "    \\toprule",
    `    ${[latexEscape(head[0]), latexEscape(head[1]), latexEscape(head[2]), head[3], head[4], latexEscape(head[5])].join(" & ")} \\\\`,
    "    \\midrule",
    ...body.map((line) => `    ${line}`),
    "    \\bottomrule",
    "  \\end{tabular}",
    "\\end{table}",
    "",
  ].join("\n");
}

/** The same table as an HTML <table> for the report page (print styles live in the page). */
export function rankingHtml(table: RankingTable): string {
  const head = ["Clustering", table.metric, `${percent(table.level)} interval`, "P(best)", "Labels", table.labelFreeName];
  const rows = rankRows(table.rows).map((row) => {
    const c = cells(row);
    const values = [c.clustering, c.estimate, interval(c.lo, c.hi, "–"), c.pBest || "–", c.labels, c.labelFree || "–"];
    return `<tr data-clustering="${escapeXml(c.clustering)}">${values.map((v, i) => `<td${i ? ' class="num"' : ""}>${escapeXml(v)}</td>`).join("")}</tr>`;
  });
  return `<table class="ranking"><thead><tr>${head.map((h, i) => `<th${i ? ' class="num"' : ""}>${escapeXml(h)}</th>`).join("")}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}
