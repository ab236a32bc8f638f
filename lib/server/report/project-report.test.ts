import { XMLValidator } from "fast-xml-parser";
import { parse } from "csv-parse/sync";
import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import * as exportRoute from "@/app/api/projects/[projectId]/exports/[kind]/route";
import { roundEstimate } from "@/lib/report/interval-rounding";
import { db } from "../db";
import { runOneJob } from "../jobs/worker-loop";
import { digitsProject, fastWorkerDeps, labelAll } from "../labeling/labeling-test-fixture";
import { estimateHistory } from "../project-data/estimate-history";
import { requestAs, routeContext } from "../http/test-requests";
import { projectTrueMetrics } from "../evaluation/true-metrics";
import { chromiumPath } from "./chromium-print";

let fixture: Awaited<ReturnType<typeof digitsProject>>;
let ownerRow: { id: string; sessionVersion: number };

beforeAll(async () => {
  fixture = await digitsProject();
  ownerRow = await db().user.findUniqueOrThrow({ where: { id: fixture.owner.id } });
}, 120_000);

async function report(query = "", user: { id: string; sessionVersion: number } = ownerRow) {
  const url = `/api/projects/${fixture.projectId}/exports/report${query}`;
  return exportRoute.GET(await requestAs(user, url), routeContext({ projectId: fixture.projectId, kind: "report" }));
}

const text = (files: Record<string, Uint8Array>, name: string) => new TextDecoder().decode(files[name]);

describe("the report download", () => {
  it("is refused before the first round, and to an annotator", async () => {
    const early = await report();
    expect(early.status).toBe(409);
    expect((await early.json()).error.message).toMatch(/No round has finished yet/);
    const annotator = await db().user.findUniqueOrThrow({ where: { id: fixture.annotators[0].id } });
    expect((await report("", annotator)).status).toBe(403);
  });

  it("zips the figures, tables, methods, BibTeX, HTML page and reproduce folder with the dashboard's numbers", async () => {
    for (const batch of [20, 10]) {
      await labelAll(fixture.annotators[0], fixture.projectId, fixture.truth, batch);
      await runOneJob("w", { deps: fastWorkerDeps });
    }
    const response = await report("?metrics=nmi,ari&clustering=kmeans_k5");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="digits-report.zip"');
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining([
        "figures/convergence.svg",
        "figures/contingency-kmeans_k5.svg",
        "tables/ranking-nmi.tex",
        "tables/ranking-nmi.md",
        "tables/ranking-nmi.csv",
        "tables/ranking-ari.csv",
        "methods.md",
        "methods.tex",
        "references.bib",
        "reproduce/config.json",
        "reproduce/labeled-subset.csv",
        "reproduce/labels.csv",
        "reproduce/estimates.csv",
        "reproduce/rounds/round-0-evidence.json",
        "report.html",
        "report.json",
      ]),
    );

    // the table: the latest round's estimates, best first, rounded to each interval's width
    const history = await estimateHistory(fixture.projectId);
    const latest = history[1].estimates.filter((e) => e.metric === "nmi").sort((a, b) => b.value - a.value);
    const table = parse(text(files, "tables/ranking-nmi.csv"), { columns: true }) as Record<string, string>[];
    expect(table.map((r) => r.clustering)).toEqual(latest.map((e) => e.clustering));
    expect(table.map((r) => [r.estimate, r.lo, r.hi])).toEqual(latest.map((e) => { const r = roundEstimate(e.value, e.lo, e.hi); return [r.estimate, r.lo, r.hi]; }));
    expect(table.map((r) => r.labels)).toEqual(latest.map(() => "30"));

    // the figure: one point per round per clustering, and the true values dashed
    const svg = text(files, "figures/convergence.svg");
    expect(XMLValidator.validate(svg)).toBe(true);
    const clusterings = latest.length;
    const lines = [...svg.matchAll(/<path d="M([^"]+)" fill="none" stroke="[^"]+" stroke-width="2"/g)];
    expect(lines).toHaveLength(2 * clusterings);
    for (const [, d] of lines) expect(d.split("L")).toHaveLength(2);
    // a truth line per clustering per panel, and the legend's key
    expect(svg.match(/stroke-dasharray="3 2"/g)).toHaveLength(2 * clusterings + 1);
    const truth = (await projectTrueMetrics(fixture.owner, fixture.projectId)).metrics;
    expect(Object.keys(truth)).toHaveLength(clusterings);
    expect(XMLValidator.validate(text(files, "figures/contingency-kmeans_k5.svg"))).toBe(true);

    // the page opens offline: no script, nothing fetched, figures and tables inline
    const html = text(files, "report.html");
    expect(html).not.toMatch(/<script|<link|src=|url\(http|href="http/i);
    expect(html.match(/<svg /g)).toHaveLength(2);
    expect(html).toContain(`<tr data-clustering="${latest[0].clustering}">`);
    expect(html).toContain("Contingency of kmeans_k5");
    expect(text(files, "methods.tex")).toContain("Cereal~\\cite{nayak2022cereal}");
    expect(text(files, "references.bib")).toMatch(/^@article\{nayak2022cereal,/);
    expect(JSON.parse(text(files, "reproduce/config.json")).rounds).toHaveLength(2);
    const subset = parse(text(files, "reproduce/labeled-subset.csv"), { columns: true }) as Record<string, string>[];
    expect(subset.map((r) => r.used_by_round)).toEqual([...Array(20).fill("0"), ...Array(10).fill("1")]);
    expect(subset.every((r) => Number(r.class_index) === fixture.truth[Number(r.item_index)])).toBe(true);

    // PNG and PDF where Chromium is installed (the e2e lane), a note where it is not
    const manifest = JSON.parse(text(files, "report.json"));
    if (chromiumPath()) {
      expect([...files["figures/convergence.png"].subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
      expect([...files["figures/contingency-kmeans_k5.png"].subarray(0, 4)]).toEqual([137, 80, 78, 71]);
      expect(new TextDecoder().decode(files["report.pdf"].subarray(0, 5))).toBe("%PDF-");
    } else {
      expect(files["report.pdf"]).toBeUndefined();
      expect(manifest.notes.join(" ")).toMatch(/Chromium is not installed/);
    }
    expect(manifest).toMatchObject({ metrics: ["nmi", "ari"], clustering: "kmeans_k5", round: 1, level: 0.9 });
  }, 240_000);

  it("of a pairwise project has no heatmap, says so, and cites MCL", async () => {
    const pairwise = await digitsProject({ mode: "pairwise", seedSize: 20 });
    await labelAll(pairwise.annotators[0], pairwise.projectId, pairwise.truth, 20);
    // the label-free job the first report queued runs too
    while (await runOneJob("w", { deps: fastWorkerDeps }));
    const owner = await db().user.findUniqueOrThrow({ where: { id: pairwise.owner.id } });
    const url = `/api/projects/${pairwise.projectId}/exports/report?metrics=ari`;
    const response = await exportRoute.GET(await requestAs(owner, url), routeContext({ projectId: pairwise.projectId, kind: "report" }));
    expect(response.status).toBe(200);
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files).filter((f) => f.includes("contingency"))).toEqual([]);
    expect(JSON.parse(text(files, "report.json")).notes.join(" ")).toMatch(/pairwise project has no class labels/);
    expect(text(files, "methods.md")).toMatch(/whether two items belong to the same class.*meta classification likelihood \(Hsu et al., 2019\)/);
    expect(parse(text(files, "tables/ranking-ari.csv"), { columns: true })).toHaveLength(6);
  }, 240_000);

  it("answers 400 for an unknown metric and 404 for an unknown clustering", async () => {
    expect((await report("?metrics=nmi,bogus")).status).toBe(400);
    const missing = await report("?clustering=nope");
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.message).toMatch(/no clustering named nope/);
  });
});
