import { parse } from "csv-parse/sync";
import { parquetReadObjects } from "hyparquet";
import { beforeAll, describe, expect, it } from "vitest";
import * as exportRoute from "@/app/api/projects/[projectId]/exports/[kind]/route";
import { db } from "../db";
import { digitsProject, fastWorkerDeps, labelAll } from "../labeling/labeling-test-fixture";
import { submitLabel } from "../labeling/labels";
import { nextTasks } from "../labeling/tasks";
import { requestAs, routeContext } from "../http/test-requests";
import { runOneJob } from "../jobs/worker-loop";

let fixture: Awaited<ReturnType<typeof digitsProject>>;
let ownerRow: { id: string; sessionVersion: number };

beforeAll(async () => {
  fixture = await digitsProject();
  await labelAll(fixture.annotators[0], fixture.projectId, fixture.truth, 15);
  await labelAll(fixture.annotators[1], fixture.projectId, fixture.truth, 5);
  await runOneJob("w", { deps: fastWorkerDeps });
  // one skip, to check kinds come through, timed by the label page and after two "same class?" answers (the labels above sent neither)
  const [task] = (await nextTasks(fixture.annotators[1], fixture.projectId, 1)).tasks;
  await submitLabel(fixture.annotators[1], fixture.projectId, { taskId: task.id, kind: "skip", reason: "blurry", durationMs: 4200, verifyAnswers: 2, idempotencyKey: "export-skip-1" });
  ownerRow = await db().user.findUniqueOrThrow({ where: { id: fixture.owner.id } });
});

async function download(kind: string, format?: string, user: { id: string; sessionVersion: number } = ownerRow) {
  const url = `/api/projects/${fixture.projectId}/exports/${kind}${format ? `?format=${format}` : ""}`;
  return exportRoute.GET(await requestAs(user, url), routeContext({ projectId: fixture.projectId, kind }));
}

async function expectedRows() {
  const labels = await db().label.findMany({ where: { projectId: fixture.projectId, withdrawn: false }, include: { task: { include: { batch: true } } }, orderBy: { id: "asc" } });
  const users = new Map((await db().user.findMany()).map((u) => [u.id, u.email]));
  return labels.map((l) => ({
    item_id: String(l.task.itemIndex),
    item_index: l.task.itemIndex,
    kind: l.kind,
    class_index: l.classIndex,
    label: l.classIndex === null ? null : String(l.classIndex),
    annotator: users.get(l.userId),
    duration_ms: l.durationMs,
    verify_answers: l.verifyAnswers,
    round: l.usedByRound,
    batch: l.task.batch.index,
    design: l.task.design,
    q: l.task.q,
    draw_order: l.task.drawOrder,
  }));
}

const pick = (row: Record<string, unknown>) => ({
  item_id: row.item_id,
  item_index: Number(row.item_index),
  kind: row.kind,
  class_index: row.class_index === "" || row.class_index === null ? null : Number(row.class_index),
  label: row.label === "" ? null : row.label,
  annotator: row.annotator,
  duration_ms: row.duration_ms === "" || row.duration_ms === null ? null : Number(row.duration_ms),
  verify_answers: row.verify_answers === "" || row.verify_answers === null ? null : Number(row.verify_answers),
  round: row.round === "" || row.round === null ? null : Number(row.round),
  batch: Number(row.batch),
  design: row.design,
  q: Number(row.q),
  draw_order: Number(row.draw_order),
});

describe("exports", () => {
  it("writes the labeled subset as CSV, JSONL and Parquet, each equal to the database rows", async () => {
    const expected = await expectedRows();
    expect(expected).toHaveLength(21);
    expect(expected.filter((r) => r.round === 0)).toHaveLength(20);

    const csv = await download("labels", "csv");
    expect(csv.headers.get("content-disposition")).toBe('attachment; filename="digits-labels.csv"');
    expect((parse(await csv.text(), { columns: true }) as Record<string, unknown>[]).map(pick)).toEqual(expected);

    const jsonl = (await (await download("labels", "jsonl")).text()).trim().split("\n").map((line) => JSON.parse(line));
    expect(jsonl.map(pick)).toEqual(expected);

    const parquet = await parquetReadObjects({ file: await (await download("labels", "parquet")).arrayBuffer() });
    expect(parquet.map(pick)).toEqual(expected);
    expect(parquet.find((r) => r.kind === "skip")).toMatchObject({ class_index: null, label: null, overflow: false, duration_ms: 4200, verify_answers: 2 });
  });

  it("writes every item with its label and the latest pseudo-label", async () => {
    const rows = parse(await (await download("items", "csv")).text(), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1797);
    const labeled = rows.filter((r) => r.label !== "");
    expect(labeled).toHaveLength(20);
    for (const r of labeled) {
      expect(r.label).toBe(String(fixture.truth[Number(r.item_index)]));
      expect(r.pseudo_label).toBe(r.label);
      expect(Number(r.confidence)).toBe(1);
    }
    const unlabeled = rows.filter((r) => r.label === "");
    expect(unlabeled.every((r) => /^\d$/.test(r.pseudo_label) && Number(r.confidence) > 0 && Number(r.confidence) <= 1)).toBe(true);
  });

  it("writes the estimate history and a configuration that names seed and code version", async () => {
    const estimates = parse(await (await download("estimates")).text(), { columns: true }) as Record<string, string>[];
    const stored = await db().estimate.count({ where: { round: { projectId: fixture.projectId } } });
    expect(estimates).toHaveLength(stored);
    expect(estimates[0]).toMatchObject({ round: "0", n_labels: "20" });
    const config = await (await download("config")).json();
    expect(config.project).toMatchObject({ seed: 7, n: 1797, mode: "clusterwise", labelBy: "pick" });
    expect(config.settings).toMatchObject({ acquisition: "hardnmi", design: "top-score", estimator: "guarded", seedSize: 20, batchSize: 10 });
    expect(config.rounds[0]).toMatchObject({ index: 0, status: "done", seed: 7 });
    expect(config.rounds[0].codeVersion).toMatch(/^0\.1\.0/);
  });

  it("is owner-only", async () => {
    const annotator = await db().user.findUniqueOrThrow({ where: { id: fixture.annotators[0].id } });
    const response = await download("labels", "csv", annotator);
    expect(response.status).toBe(403);
    expect((await download("nonsense")).status).toBe(404);
    expect((await download("labels", "xlsx")).status).toBe(400);
  });
});

describe("CSV formula injection (issue 19, finding 4)", () => {
  it("neutralises a class name that a spreadsheet would run, in every CSV; JSONL keeps it; numbers stay numbers", async () => {
    const formula = '=HYPERLINK("http://127.0.0.1:9/x","click")';
    const labeledClass = (await db().label.findFirstOrThrow({ where: { projectId: fixture.projectId, classIndex: { not: null } } })).classIndex!;
    await db().referenceClass.updateMany({ where: { projectId: fixture.projectId, index: labeledClass }, data: { name: formula } });
    const estimate = await db().estimate.findFirstOrThrow({ where: { round: { projectId: fixture.projectId }, metric: "ari" } });
    await db().estimate.update({ where: { id: estimate.id }, data: { value: -0.0125, lo: -0.25, hi: 0.5 } });

    const csvRows = parse(await (await download("labels", "csv")).text(), { columns: true }) as Record<string, string>[];
    const withFormula = csvRows.filter((r) => r.class_index === String(labeledClass) && r.kind === "label");
    expect(withFormula.length).toBeGreaterThan(0);
    for (const r of withFormula) expect(r.label).toBe(`'${formula}`);
    const items = parse(await (await download("items", "csv")).text(), { columns: true }) as Record<string, string>[];
    expect(items.filter((r) => r.pseudo_label.startsWith("=") || r.label.startsWith("="))).toEqual([]);
    expect(items.some((r) => r.pseudo_label === `'${formula}`)).toBe(true);

    const jsonl = (await (await download("labels", "jsonl")).text()).trim().split("\n").map((line) => JSON.parse(line));
    expect(jsonl.filter((r) => r.class_index === labeledClass && r.kind === "label").every((r) => r.label === formula)).toBe(true);

    const estimates = await (await download("estimates")).text();
    expect(estimates).toContain(",ari,-0.0125,-0.25,0.5,");
    expect(estimates).not.toContain("'-");
  });
});
