/**
 * Items as the browser gets them: images streamed from the project folder through an
 * authorized route (never public/), and the owner's paginated item list. The whole list pages by
 * Item(projectId, index), the unique index, so page k costs the same at N = 1M as page 1; one cell
 * of a clustering's contingency view reads the clustering and the latest round's results (one
 * pass over N) for each page.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { z } from "zod";
import { db } from "../db";
import { badRequest, notFound } from "../errors";
import { clusterAssignments, itemClasses, type ItemClasses } from "../evaluation/item-assignments";
import { itemView, type ItemView } from "./item-view";
import { requireProjectRole } from "../auth/project-access";
import { projectFilePath } from "../project-data/folder";
import type { SessionUser } from "../auth/session";

const IMAGE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".bmp": "image/bmp",
  ".svg": "image/svg+xml",
};

export const itemIndex = z.coerce.number().int().min(0, "An item index is 0 or more.");

export async function itemImage(user: SessionUser, projectId: string, rawIndex: string, ifNoneMatch: string | null): Promise<Response> {
  await requireProjectRole(user, projectId);
  const index = itemIndex.parse(rawIndex);
  const item = await db().item.findUnique({
    where: { projectId_index: { projectId, index } },
    select: { image: true, project: { select: { dataPath: true } } },
  });
  if (!item) throw notFound(`This project has no item ${index}.`);
  if (!item.image) throw notFound(`Item ${index} has no image.`);
  const file = projectFilePath(item.project, item.image);
  const info = await stat(file).catch(() => null);
  if (!info) throw notFound(`The image of item ${index} is missing from the project folder.`);
  // Imported images never change in place, so size + mtime identify the bytes.
  const etag = `"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
  const headers = new Headers({
    "cache-control": "private, max-age=86400",
    etag,
    "content-type": IMAGE_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream",
    // An uploaded SVG could carry script; it must never run in our origin.
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    "x-content-type-options": "nosniff",
  });
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim() === etag)) return new Response(null, { status: 304, headers });
  headers.set("content-length", String(info.size));
  return new Response(Readable.toWeb(createReadStream(file)) as ReadableStream, { headers });
}

export const listItemsQuery = z.object({
  after: z.coerce.number().int().min(-1).default(-1),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  clustering: z.string().min(1).optional(),
  cluster: z.coerce.number().int().min(0, "A cluster is 0 or more.").optional(),
  class: z.coerce.number().int().min(0, "A class index is 0 or more.").optional(),
});

const ITEM_SELECT = { index: true, externalId: true, image: true, text: true } as const;

/**
 * Items after index `after`, in index order; `next` is the cursor of the following page (null at
 * the end). With `clustering` (and optionally `cluster`, `class`) only the items of that cell of
 * the contingency view, each with its cluster and its class: a human label, or the latest round's
 * pseudo-label with the surrogate's confidence; `total` counts the whole cell.
 */
export async function listItems(user: SessionUser, projectId: string, query: z.infer<typeof listItemsQuery>) {
  await requireProjectRole(user, projectId, "OWNER");
  if (query.clustering === undefined) {
    if (query.cluster !== undefined || query.class !== undefined)
      throw badRequest("Filtering by cluster or class needs the clustering too: ?clustering=NAME&cluster=K&class=C.");
    const items = await db().item.findMany({ where: { projectId, index: { gt: query.after } }, orderBy: { index: "asc" }, take: query.limit, select: ITEM_SELECT });
    const next = items.length === query.limit ? items[items.length - 1].index : null;
    return { items: items.map((item) => itemView(projectId, item.index, item)), next };
  }
  return listCellItems(projectId, { ...query, clustering: query.clustering });
}

/** An item of one contingency cell: its cluster, and its class with where that class comes from. */
export interface CellItem extends ItemView {
  cluster: number;
  /** the human label's class on labeled items, the latest round's pseudo-label elsewhere (null: none yet) */
  class: number | null;
  labeled: boolean;
  /** the surrogate's probability of a pseudo-label; null on labeled items */
  confidence: number | null;
}
export interface CellPage {
  items: CellItem[];
  next: number | null;
  /** items in the whole cell */
  total: number;
  source: ItemClasses["source"] | null;
}

async function listCellItems(projectId: string, query: z.infer<typeof listItemsQuery> & { clustering: string }): Promise<CellPage> {
  const project = await db().project.findUniqueOrThrow({ where: { id: projectId }, select: { dataPath: true, n: true, mode: true, _count: { select: { classes: true } } } });
  if (query.class !== undefined && project.mode === "pairwise") throw badRequest("A pairwise project has no class labels to filter by.");
  const { k, assignments } = await clusterAssignments(projectId, project, query.clustering);
  if (query.cluster !== undefined && query.cluster >= k) throw badRequest(`${query.clustering} has clusters 0 to ${k - 1}; there is no cluster ${query.cluster}.`);
  if (query.class !== undefined && query.class >= project._count.classes)
    throw badRequest(`This project has classes 0 to ${project._count.classes - 1}; there is no class ${query.class}.`);
  const classOf = project.mode === "pairwise" ? null : await itemClasses(projectId, project);
  // one pass over N: the cell's size, and the page after the cursor (no N-sized list of matches)
  const page: number[] = [];
  let total = 0;
  let more = false;
  for (let i = 0; i < project.n; i++) {
    if (query.cluster !== undefined && assignments[i] !== query.cluster) continue;
    if (query.class !== undefined && classOf!.classOf(i) !== query.class) continue;
    total++;
    if (i <= query.after) continue;
    if (page.length < query.limit) page.push(i);
    else more = true;
  }
  const rows = await db().item.findMany({ where: { projectId, index: { in: page } }, orderBy: { index: "asc" }, select: ITEM_SELECT });
  const next = more ? page[page.length - 1] : null;
  return {
    items: rows.map((row) => {
      const i = row.index;
      const known = classOf !== null && classOf.classOf(i) >= 0;
      const confidence = classOf?.confidence(i) ?? Number.NaN;
      return {
        ...itemView(projectId, i, row),
        cluster: assignments[i],
        class: known ? classOf.classOf(i) : null,
        labeled: classOf?.labeled.has(i) ?? false,
        confidence: known && !Number.isNaN(confidence) ? confidence : null,
      };
    }),
    next,
    total,
    source: classOf?.source ?? null,
  };
}
