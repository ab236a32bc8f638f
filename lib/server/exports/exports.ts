import { stringify, type Options as CsvOptions } from "csv-stringify/sync";
import { ByteWriter, ParquetWriter, schemaFromColumnData, type ColumnSource } from "hyparquet-writer";
import { z } from "zod";
import { neutralizeFormula } from "@/lib/data/csv-formula";
import { db } from "../db";
import { latestRoundResults } from "../evaluation/item-assignments";
import { requireProjectRole } from "../auth/project-access";
import { estimateHistory } from "../project-data/estimate-history";
import { runSettings } from "../projects/run-settings";
import type { SessionUser } from "../auth/session";

/**
 * Owner-only downloads, streamed page by page from the database so that a million rows take
 * constant memory: the labeled subset (CSV, JSONL, Parquet; with the draw record of each task),
 * every item with its latest pseudo-label, the estimate history (CSV) and the configuration
 * needed to reproduce the run (JSON).
 */
export const exportFormat = z.object({ format: z.enum(["csv", "jsonl", "parquet"], "format must be csv, jsonl or parquet").default("csv") });
export type ExportFormat = z.infer<typeof exportFormat>["format"];

const PAGE = 5_000;
type Row = Record<string, string | number | boolean | null>;

/** The columns of the labels export, in order, with their Parquet types. */
const LABEL_COLUMNS = {
  item_id: "STRING",
  item_index: "INT32",
  item_b_id: "STRING",
  item_b_index: "INT32",
  kind: "STRING",
  class_index: "INT32",
  label: "STRING",
  answer: "STRING",
  annotator: "STRING",
  created_at: "STRING",
  duration_ms: "INT32",
  verify_answers: "INT32",
  round: "INT32",
  batch: "INT32",
  design: "STRING",
  score: "DOUBLE",
  q: "DOUBLE",
  draw_order: "INT32",
  overflow: "BOOLEAN",
} as const;

const ITEM_COLUMNS = { item_index: "INT32", item_id: "STRING", label: "STRING", pseudo_label: "STRING", confidence: "DOUBLE", round: "INT32" } as const;

async function* labelPages(projectId: string): AsyncGenerator<Row[]> {
  const classes = new Map((await db().referenceClass.findMany({ where: { projectId } })).map((c) => [c.index, c.name]));
  const ids = async (indexes: number[]) =>
    new Map((await db().item.findMany({ where: { projectId, index: { in: indexes } }, select: { index: true, externalId: true } })).map((i) => [i.index, i.externalId]));
  let cursor: string | undefined;
  for (;;) {
    const labels = await db().label.findMany({
      where: { projectId, withdrawn: false },
      orderBy: { id: "asc" },
      take: PAGE,
      ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
      include: { task: { include: { batch: { select: { index: true } } } } },
    });
    if (!labels.length) return;
    cursor = labels[labels.length - 1].id;
    const users = new Map((await db().user.findMany({ where: { id: { in: [...new Set(labels.map((l) => l.userId))] } }, select: { id: true, email: true } })).map((u) => [u.id, u.email]));
    const itemIds = await ids([...new Set(labels.flatMap((l) => (l.task.itemIndexB === null ? [l.task.itemIndex] : [l.task.itemIndex, l.task.itemIndexB])))]);
    yield labels.map((l) => ({
      item_id: itemIds.get(l.task.itemIndex) ?? String(l.task.itemIndex),
      item_index: l.task.itemIndex,
      item_b_id: l.task.itemIndexB === null ? null : (itemIds.get(l.task.itemIndexB) ?? String(l.task.itemIndexB)),
      item_b_index: l.task.itemIndexB,
      kind: l.kind,
      class_index: l.classIndex,
      label: l.classIndex === null ? null : (classes.get(l.classIndex) ?? String(l.classIndex)),
      answer: l.answer,
      annotator: users.get(l.userId) ?? l.userId,
      created_at: l.createdAt.toISOString(),
      duration_ms: l.durationMs,
      verify_answers: l.verifyAnswers,
      round: l.usedByRound,
      batch: l.task.batch.index,
      design: l.task.design,
      score: l.task.score,
      q: l.task.q,
      draw_order: l.task.drawOrder,
      overflow: l.task.overflow,
    }));
  }
}

/** Every item with its human label (majority, if any) and the latest round's pseudo-label and confidence. */
async function* itemPages(projectId: string): AsyncGenerator<Row[]> {
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId } });
  const classes = new Map((await db().referenceClass.findMany({ where: { projectId } })).map((c) => [c.index, c.name]));
  const latest = await latestRoundResults(projectId, project);
  const results = latest?.results ?? null;
  const name = (index: number) => classes.get(index) ?? String(index);
  // a pairwise round's ids are the L2C surrogate's clusters, not reference classes: never named as one
  const pseudoName = project.mode === "pairwise" ? (id: number) => `cluster ${id}` : name;
  let after = -1;
  for (;;) {
    const items = await db().item.findMany({ where: { projectId, index: { gt: after } }, orderBy: { index: "asc" }, take: PAGE, select: { index: true, externalId: true } });
    if (!items.length) return;
    after = items[items.length - 1].index;
    const labels = await db().label.findMany({
      where: { projectId, withdrawn: false, kind: "label", task: { itemIndexB: null, itemIndex: { gte: items[0].index, lte: after } } },
      select: { classIndex: true, task: { select: { itemIndex: true } } },
    });
    const human = new Map<number, number>();
    for (const l of labels) if (l.classIndex !== null) human.set(l.task.itemIndex, l.classIndex);
    yield items.map((item) => {
      const pseudo = results && results[item.index * 2] >= 0 ? results[item.index * 2] : null;
      return {
        item_index: item.index,
        item_id: item.externalId,
        label: human.has(item.index) ? name(human.get(item.index)!) : null,
        pseudo_label: pseudo === null ? null : pseudoName(pseudo),
        confidence: pseudo === null ? null : results![item.index * 2 + 1],
        round: latest?.round ?? null,
      };
    });
  }
}

/** Every CSV the app writes goes through here: text cells that a spreadsheet would run are neutralised. */
function csv(rows: unknown[][] | Row[], options: CsvOptions = {}): string {
  return stringify(rows, { ...options, cast: { boolean: (b) => String(b), string: neutralizeFormula } });
}

function stream(pages: AsyncGenerator<Row[]>, format: ExportFormat, columns: Record<string, string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  if (format !== "parquet") {
    let first = true;
    return new ReadableStream({
      async pull(controller) {
        const { value, done } = await pages.next();
        if (done) {
          if (first && format === "csv") controller.enqueue(encoder.encode(csv([Object.keys(columns)])));
          return controller.close();
        }
        const text = format === "csv" ? csv(value, { header: first, columns: Object.keys(columns) }) : value.map((r) => JSON.stringify(r)).join("\n") + "\n";
        first = false;
        controller.enqueue(encoder.encode(text));
      },
    });
  }
  // Parquet: one row group per page; the writer hands its bytes on after each row group.
  const chunks: Uint8Array[] = [];
  const writer = new ByteWriter();
  const flush = () => {
    chunks.push(new Uint8Array(writer.buffer, 0, writer.index).slice());
    writer.index = 0;
  };
  Object.assign(writer, { flush, finish: flush });
  const sample: ColumnSource[] = Object.entries(columns).map(([name, type]) => ({ name, data: [], type: type as ColumnSource["type"] }));
  const parquet = new ParquetWriter({ writer, schema: schemaFromColumnData({ columnData: sample }), createdBy: "Cereal Studio" });
  return new ReadableStream({
    async pull(controller) {
      const { value, done } = await pages.next();
      if (done) parquet.finish();
      else await parquet.write({ columnData: Object.entries(columns).map(([name, type]) => ({ name, type: type as ColumnSource["type"], data: value.map((r) => r[name]) })), rowGroupSize: PAGE });
      for (const chunk of chunks.splice(0)) controller.enqueue(chunk);
      if (done) controller.close();
    },
  });
}

const MIME: Record<ExportFormat, string> = { csv: "text/csv; charset=utf-8", jsonl: "application/x-ndjson; charset=utf-8", parquet: "application/vnd.apache.parquet" };

function download(body: ReadableStream<Uint8Array> | string, filename: string, type: string): Response {
  return new Response(body, { headers: { "content-type": type, "content-disposition": `attachment; filename="${filename}"`, "cache-control": "no-store" } });
}

export async function fileStem(projectId: string) {
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { name: true } });
  return project.name.replace(/[^\w.-]+/g, "-").replace(/^-|-$/g, "").toLowerCase() || "project";
}

export async function exportLabels(user: SessionUser, projectId: string, format: ExportFormat) {
  await requireProjectRole(user, projectId, "OWNER");
  return download(stream(labelPages(projectId), format, LABEL_COLUMNS), `${await fileStem(projectId)}-labels.${format}`, MIME[format]);
}

export async function exportItems(user: SessionUser, projectId: string, format: ExportFormat) {
  await requireProjectRole(user, projectId, "OWNER");
  return download(stream(itemPages(projectId), format, ITEM_COLUMNS), `${await fileStem(projectId)}-items.${format}`, MIME[format]);
}

/** Every round's estimates of every clustering and metric, with intervals and P(best); the running round's interim ones last, `interim` true (from the previous round's model). */
export async function exportEstimates(user: SessionUser, projectId: string) {
  await requireProjectRole(user, projectId, "OWNER");
  const rounds = await estimateHistory(projectId, { withInterim: true });
  const rows = rounds.flatMap((r) =>
    r.estimates.map((e) => [r.index, r.nLabels, e.clustering, e.metric, e.value, e.lo, e.hi, e.pBest, r.backend, r.finishedAt?.toISOString() ?? "", r.interim]),
  );
  const text = csv([["round", "n_labels", "clustering", "metric", "estimate", "lo", "hi", "p_best", "backend", "finished_at", "interim"], ...rows]);
  return download(text, `${await fileStem(projectId)}-estimates.csv`, MIME.csv);
}

/** The configuration and every round's settings, seed and code version: enough to reproduce the run. */
export async function exportConfig(user: SessionUser, projectId: string) {
  await requireProjectRole(user, projectId, "OWNER");
  const project = await db().project.findUniqueOrThrow({
    where: { id: projectId },
    include: { classes: { orderBy: { index: "asc" } }, clusterings: { orderBy: { name: "asc" } }, rounds: { orderBy: { index: "asc" } } },
  });
  const config = {
    project: { name: project.name, bundle: project.bundleName, n: project.n, d: project.d, mode: project.mode, classMode: project.classMode, labelBy: project.labelBy, seed: project.seed },
    settings: runSettings(project),
    classes: project.classes.map((c) => ({ index: c.index, name: c.name, description: c.description })),
    clusterings: project.clusterings.map((c) => ({ name: c.name, k: c.k, file: c.file, softFile: c.softFile, space: c.space, origin: c.origin })),
    rounds: project.rounds.map((r) => ({ index: r.index, status: r.status, nLabels: r.nLabels, seed: r.seed, codeVersion: r.codeVersion, backend: r.backend, acquisition: r.acquisition, config: r.config, resultsFile: r.resultsFile })),
  };
  return download(JSON.stringify(config, null, 2), `${await fileStem(projectId)}-config.json`, "application/json");
}
