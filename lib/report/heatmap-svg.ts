import { FONT, num, svgDocument, text } from "./svg";

/**
 * The contingency heatmap of one clustering: reference classes (rows) x clusters (columns), each
 * cell shaded by its share of the class (white to Okabe-Ito blue, readable in greyscale), its
 * count printed, and each class's largest cell boxed in vermillion (the AP metric's argmax).
 */
export interface HeatmapInput {
  readonly clustering: string;
  readonly classes: readonly string[];
  /** cells[class][cluster] */
  readonly cells: readonly (readonly number[])[];
  readonly rowMaxima: readonly (readonly number[])[];
  readonly labeled: number;
  readonly pseudoLabeled: number;
  readonly ap: number;
  readonly associativity: number;
  readonly peakiness: number;
}

const CELL = 34;
const LEFT = 130;
const TOP = 74;
const BLUE = [0, 114, 178];

/** White at 0, Okabe-Ito blue at 1. */
function shade(share: number): string {
  const [r, g, b] = BLUE.map((c) => Math.round(255 + (c - 255) * share));
  return `rgb(${r},${g},${b})`;
}

export function heatmapSvg(input: HeatmapInput): string {
  const K = input.cells[0]?.length ?? 0;
  const C = input.classes.length;
  const width = Math.max(LEFT + K * CELL + 24, LEFT + 280);
  const height = TOP + C * CELL + 58;
  const title = `Contingency of ${input.clustering}: reference classes x clusters`;
  const body: string[] = [
    text(12, 20, title, 'font-size="13" fill="#111"'),
    text(12, 38, `${input.labeled} labels + ${input.pseudoLabeled} pseudo-labels; A = ${input.associativity.toFixed(3)}, P = ${input.peakiness.toFixed(3)}, AP = ${input.ap.toFixed(3)}`, 'font-size="11" fill="#333"'),
    text(LEFT + (K * CELL) / 2, TOP - 22, "Cluster", 'font-size="11.5" fill="#111" text-anchor="middle"'),
    text(14, TOP + (C * CELL) / 2, "Reference class", `font-size="11.5" fill="#111" text-anchor="middle" transform="rotate(-90 14 ${num(TOP + (C * CELL) / 2)})"`),
  ];
  for (let k = 0; k < K; k++) body.push(text(LEFT + k * CELL + CELL / 2, TOP - 6, String(k), 'font-size="10.5" fill="#333" text-anchor="middle"'));
  input.cells.forEach((row, c) => {
    const total = row.reduce((s, v) => s + v, 0);
    const y = TOP + c * CELL;
    body.push(text(LEFT - 6, y + CELL / 2 + 4, input.classes[c], 'font-size="10.5" fill="#333" text-anchor="end"'));
    row.forEach((v, k) => {
      const share = total > 0 ? v / total : 0;
      const x = LEFT + k * CELL;
      body.push(`<rect x="${x}" y="${y}" width="${CELL}" height="${CELL}" fill="${shade(share)}" stroke="#d4d4d4" stroke-width="0.6"/>`);
      if (v > 0) body.push(`<text x="${x + CELL / 2}" y="${y + CELL / 2 + 4}" font-family="${FONT}" font-size="10" text-anchor="middle" fill="${share > 0.55 ? "#fff" : "#111"}">${v}</text>`);
    });
    for (const k of input.rowMaxima[c] ?? []) body.push(`<rect x="${LEFT + k * CELL + 1.5}" y="${y + 1.5}" width="${CELL - 3}" height="${CELL - 3}" fill="none" stroke="#D55E00" stroke-width="2.4"/>`);
  });
  const legendY = TOP + C * CELL + 22;
  body.push(`<defs><linearGradient id="share" x1="0" x2="1"><stop offset="0" stop-color="${shade(0)}"/><stop offset="1" stop-color="${shade(1)}"/></linearGradient></defs>`);
  body.push(text(12, legendY + 9, "Share of the class:", 'font-size="10" fill="#333"'));
  body.push(text(LEFT - 6, legendY + 9, "0", 'font-size="10" fill="#333" text-anchor="end"'));
  body.push(`<rect x="${LEFT}" y="${legendY}" width="100" height="10" fill="url(#share)" stroke="#999" stroke-width="0.6"/>`);
  body.push(text(LEFT + 104, legendY + 9, "1", 'font-size="10" fill="#333"'));
  body.push(`<rect x="${LEFT + 126}" y="${legendY - 1}" width="12" height="12" fill="none" stroke="#D55E00" stroke-width="2.4"/>`);
  body.push(text(LEFT + 144, legendY + 9, "largest cell of its class", 'font-size="10" fill="#333"'));
  return svgDocument(width, height, title, body);
}
