/**
 * Items as the browser gets them: images streamed from the project folder through an
 * authorized route (never public/), and the owner's paginated item list. Pages follow
 * Item(projectId, index), the unique index, so page k costs the same at N = 1M as page 1.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { z } from "zod";
import { db } from "./db";
import { notFound } from "./errors";
import { requireProjectRole } from "./project-access";
import { projectFile } from "./project-files";
import type { SessionUser } from "./session";

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
  const file = projectFile(item.project, item.image);
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
});

/** Items after index `after`, in index order; `next` is the cursor of the following page (null at the end). */
export async function listItems(user: SessionUser, projectId: string, query: z.infer<typeof listItemsQuery>) {
  await requireProjectRole(user, projectId, "OWNER");
  const items = await db().item.findMany({
    where: { projectId, index: { gt: query.after } },
    orderBy: { index: "asc" },
    take: query.limit,
    select: { index: true, externalId: true, image: true, text: true },
  });
  const next = items.length === query.limit ? items[items.length - 1].index : null;
  return { items: items.map((i) => ({ index: i.index, id: i.externalId, hasImage: i.image !== null, text: i.text })), next };
}
