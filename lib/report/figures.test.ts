import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { convergenceSvg, type ConvergenceFigure } from "./convergence-svg";
import { heatmapSvg } from "./heatmap-svg";
import { OKABE_ITO } from "./palette";
import { niceTicks } from "./svg";

const figure: ConvergenceFigure = {
  title: "Estimates <demo> & truth",
  level: 0.9,
  panels: ["NMI", "ARI"].map((metric) => ({
    metric,
    series: [
      { name: "kmeans_k10", truth: 0.6, points: [20, 30, 40].map((x, i) => ({ x, y: 0.5 + i * 0.05, lo: 0.4 + i * 0.05, hi: 0.7 + i * 0.02 })) },
      { name: "a&b", truth: null, points: [20, 30, 40].map((x) => ({ x, y: 0.3, lo: null, hi: null })) },
    ],
  })),
};

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", isArray: (_name, _path, _leaf, isAttribute) => !isAttribute });
type Node = Record<string, unknown>;
/** every element named `tag` anywhere below `node` */
function all(node: unknown, tag: string): Node[] {
  if (Array.isArray(node)) return node.flatMap((n) => all(n, tag));
  if (!node || typeof node !== "object") return [];
  return Object.entries(node as Node).flatMap(([k, v]) => [...(k === tag ? (v as Node[]) : []), ...all(v, tag)]);
}
const texts = (doc: unknown) => all(doc, "text").map((t) => String(t["#text"]));

describe("the convergence figure", () => {
  const svg = convergenceSvg(figure);
  const doc = parser.parse(svg);

  it("is well-formed SVG with its size, title and white background", () => {
    expect(XMLValidator.validate(svg)).toBe(true);
    const root = all(doc, "svg")[0];
    expect(root.xmlns).toBe("http://www.w3.org/2000/svg");
    expect(root.width).toBe("860");
    expect(String(all(doc, "title")[0])).toBe("Estimates <demo> & truth");
  });

  it("draws a panel per metric with axis labels, a legend entry per clustering and the interval and truth keys", () => {
    const t = texts(doc);
    expect(t).toEqual(expect.arrayContaining(["NMI", "ARI", "NMI estimate", "ARI estimate", "Labels used (items)", "kmeans_k10", "a&b", "90% interval", "true value (reference labels)"]));
    expect(t.filter((x) => x === "Labels used (items)")).toHaveLength(2);
  });

  it("draws one band per banded series, a dashed truth line and one estimate line per series per panel, in distinct Okabe-Ito colours and dashes", () => {
    const bands = all(doc, "polygon").filter((p) => p["fill-opacity"] === "0.14");
    expect(bands).toHaveLength(2);
    const lines = all(doc, "path").filter((p) => p["stroke-width"] === "2");
    expect(lines).toHaveLength(4);
    const styles = new Set(lines.map((p) => `${p.stroke}|${p["stroke-dasharray"] ?? ""}`));
    expect(styles.size).toBe(2);
    for (const p of lines) expect(OKABE_ITO).toContain(p.stroke);
    expect(new Set(lines.map((p) => p["stroke-dasharray"] ?? "")).size).toBe(2);
    const truths = all(doc, "line").filter((l) => l["stroke-dasharray"] === "3 2" && l.stroke === OKABE_ITO[1]);
    // "a&b" sorts first (blue), kmeans_k10 second (vermillion): its truth in both panels
    expect(truths).toHaveLength(2);
  });
});

describe("the contingency heatmap", () => {
  const svg = heatmapSvg({
    clustering: "k_5 & co",
    classes: ["shirt", "coat"],
    cells: [
      [8, 2, 0],
      [1, 1, 6],
    ],
    rowMaxima: [[0], [2]],
    labeled: 5,
    pseudoLabeled: 13,
    ap: 0.71,
    associativity: 0.8,
    peakiness: 0.9,
  });
  const doc = parser.parse(svg);

  it("is well-formed SVG with a cell per class and cluster, the counts, and each class's largest cell boxed", () => {
    expect(XMLValidator.validate(svg)).toBe(true);
    const cells = all(doc, "rect").filter((r) => r.width === "34");
    expect(cells).toHaveLength(6);
    const boxed = all(doc, "rect").filter((r) => r.stroke === "#D55E00" && r.width !== "12");
    expect(boxed).toHaveLength(2);
    expect(texts(doc)).toEqual(expect.arrayContaining(["8", "2", "1", "6", "shirt", "coat", "Cluster", "Reference class"]));
    // the empty cell prints no count: "0" is only the first cluster's heading and the legend's scale
    expect(texts(doc).filter((t) => t === "0")).toHaveLength(2);
  });
});

describe("axis ticks", () => {
  it("steps by 1, 2 or 5 times a power of ten and covers the range", () => {
    expect(niceTicks(0.31, 0.78, 5)).toEqual([0.3, 0.4, 0.5, 0.6, 0.7, 0.8]);
    expect(niceTicks(-0.27, 0.74, 5)).toEqual([-0.4, -0.2, 0, 0.2, 0.4, 0.6, 0.8]);
    expect(niceTicks(20, 40, 6)).toEqual([20, 25, 30, 35, 40]);
    expect(niceTicks(0, 1000, 4)).toEqual([0, 200, 400, 600, 800, 1000]);
  });
});
