import { rankingHtml, type RankingTable } from "./ranking-table";
import { escapeXml } from "./svg";

/**
 * The report as one self-contained HTML page: figures inlined as SVG, tables, the methods
 * paragraph, BibTeX and the reproducibility summary; no script, no external resource, so it
 * opens offline and Chromium prints it to PDF as it is (A4, no page chrome).
 */
export interface ReportPage {
  readonly title: string;
  readonly subtitle: string;
  readonly convergenceSvg: string;
  readonly tables: readonly { readonly metric: string; readonly table: RankingTable; readonly caption: string }[];
  /** null for pairwise projects, which have no class labels to cross with clusters */
  readonly heatmap: { readonly clustering: string; readonly svg: string } | null;
  readonly methods: string;
  readonly bibtex: string;
  /** what the reproducibility folder holds and the command that recomputes the table */
  readonly reproduce: readonly string[];
  readonly notes: readonly string[];
}

const STYLE = `
@page { size: A4; margin: 16mm 14mm; }
body { font-family: Helvetica, Arial, sans-serif; color: #111; max-width: 900px; margin: 24px auto; padding: 0 16px; line-height: 1.45; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 16px; margin: 28px 0 8px; border-bottom: 1px solid #ccc; padding-bottom: 3px; }
.sub { color: #444; font-size: 13px; margin: 0 0 16px; }
figure { margin: 12px 0; break-inside: avoid; } figure svg { max-width: 100%; height: auto; } figcaption { font-size: 12px; color: #333; }
table.ranking { border-collapse: collapse; font-size: 13px; margin: 6px 0 4px; break-inside: avoid; }
table.ranking th, table.ranking td { padding: 3px 10px; text-align: left; } table.ranking .num { text-align: right; font-variant-numeric: tabular-nums; }
table.ranking thead th { border-top: 1.5px solid #111; border-bottom: 1px solid #111; } table.ranking tbody tr:last-child td { border-bottom: 1.5px solid #111; }
.caption { font-size: 12px; color: #333; margin: 0 0 14px; }
pre { background: #f6f6f6; border: 1px solid #ddd; padding: 8px; font-size: 11px; white-space: pre-wrap; word-break: break-word; }
ul { font-size: 13px; } p { font-size: 14px; }
@media print { body { margin: 0; max-width: none; } h2 { break-after: avoid; } }
`;

export function reportHtml(page: ReportPage): string {
  const e = escapeXml;
  const tables = page.tables.map((t) => `<section class="table"><h3 style="font-size:14px;margin:14px 0 4px">${e(t.metric)}</h3>${rankingHtml(t.table)}<p class="caption">${e(t.caption)}</p></section>`);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${e(page.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${e(page.title)}</h1>
<p class="sub">${e(page.subtitle)}</p>
<h2>Convergence</h2>
<figure id="convergence">${page.convergenceSvg}<figcaption>Estimate against the labels used, per round; bands are the intervals, thin dashed lines the true values where reference labels exist.</figcaption></figure>
<h2>Ranking</h2>
${tables.join("\n")}
${page.heatmap ? `<h2>Contingency of ${e(page.heatmap.clustering)}</h2>\n<figure id="heatmap">${page.heatmap.svg}</figure>` : ""}
<h2>Methods</h2>
<p id="methods">${e(page.methods)}</p>
<h2>References (BibTeX)</h2>
<pre id="bibtex">${e(page.bibtex)}</pre>
<h2>Reproducibility</h2>
<ul>${page.reproduce.map((line) => `<li>${e(line)}</li>`).join("")}</ul>
${page.notes.length ? `<h2>Notes</h2>\n<ul>${page.notes.map((n) => `<li>${e(n)}</li>`).join("")}</ul>` : ""}
</body>
</html>
`;
}
