import { Zip, ZipPassThrough } from "fflate";
import { db } from "../db";
import { requireProjectRole } from "../auth/project-access";
import { projectFileStream } from "../project-data/folder";
import { readManifest } from "../project-data/manifest";
import type { SessionUser } from "../auth/session";

/**
 * The project as a dataset bundle (.zip, the interchange format of data/README): manifest,
 * embeddings, spaces, every test clustering (also those added after import), items and images,
 * and the reference labels where the project has them. Importing the zip gives the same
 * dataset. Files are stored, not deflated (.npy and .png barely compress), and streamed one
 * chunk at a time, so a large project takes constant memory.
 */
export async function exportBundle(user: SessionUser, projectId: string): Promise<Response> {
  await requireProjectRole(user, projectId, "OWNER");
  const project = await db().project.findUniqueOrThrow({
    where: { id: projectId },
    include: { classes: { orderBy: { index: "asc" } }, clusterings: { orderBy: { name: "asc" } }, spaces: { orderBy: { name: "asc" } } },
  });
  const original: Record<string, unknown> = await readManifest(project);
  const embeddings = (original.embeddings as string | undefined) ?? "embeddings.npy";
  const labels = project.hasReferenceLabels ? ((original.labels as string | undefined) ?? "labels.npy") : null;
  const items = (original.items as string | undefined) ?? null;
  const manifest = {
    ...original,
    name: original.name ?? project.bundleName,
    N: project.n,
    D: project.d,
    class_names: project.classes.map((c) => c.name),
    embeddings,
    ...(labels ? { labels } : {}),
    ...(items ? { items } : {}),
    ...(project.spaces.length ? { spaces: Object.fromEntries(project.spaces.map((s) => [s.name, { file: s.file, D: s.d }])) } : {}),
    clusterings: Object.fromEntries(
      project.clusterings.map((c) => [
        c.name,
        { ...(c.origin as object), file: c.file, K: c.k, ...(c.softFile ? { soft_file: c.softFile } : {}), ...(c.space ? { space: c.space } : {}), ...((c.trueMetrics as object | null) ?? {}) },
      ]),
    ),
  };
  const files = [embeddings, ...(labels ? [labels] : []), ...(items ? [items] : []), ...project.spaces.map((s) => s.file)];
  for (const c of project.clusterings) files.push(c.file, ...(c.softFile ? [c.softFile] : []));
  const unique = [...new Set(files)];

  async function* entries(): AsyncGenerator<{ name: string; chunks: AsyncIterable<Uint8Array> }> {
    yield { name: "manifest.json", chunks: (async function* () { yield new TextEncoder().encode(JSON.stringify(manifest, null, 1)); })() };
    for (const file of unique) yield { name: file, chunks: projectFileStream(project, file) };
    // images in item order, paged so a million items never sit in memory at once
    let after = -1;
    for (;;) {
      const page = await db().item.findMany({ where: { projectId, index: { gt: after }, image: { not: null } }, orderBy: { index: "asc" }, take: 1000, select: { index: true, image: true } });
      if (!page.length) return;
      after = page[page.length - 1].index;
      for (const item of page) yield { name: item.image!, chunks: projectFileStream(project, item.image!) };
    }
  }

  const out: Uint8Array[] = [];
  let finished = false;
  const zip = new Zip((error, chunk, final) => {
    if (error) throw error;
    out.push(chunk);
    if (final) finished = true;
  });
  const source = entries();
  let current: { entry: ZipPassThrough; reader: AsyncIterator<Uint8Array> } | null = null;
  const stem = project.name.replace(/[^\w.-]+/g, "-").replace(/^-|-$/g, "").toLowerCase() || "project";
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (!out.length && !finished) {
        if (!current) {
          const next = await source.next();
          if (next.done) {
            zip.end();
            break;
          }
          const entry = new ZipPassThrough(next.value.name);
          zip.add(entry);
          current = { entry, reader: next.value.chunks[Symbol.asyncIterator]() };
        }
        const chunk = await current.reader.next();
        if (chunk.done) {
          current.entry.push(new Uint8Array(0), true);
          current = null;
        } else current.entry.push(chunk.value instanceof Uint8Array ? chunk.value : new Uint8Array(chunk.value));
      }
      for (const chunk of out.splice(0)) controller.enqueue(chunk);
      if (finished && !out.length) controller.close();
    },
  });
  return new Response(body, { headers: { "content-type": "application/zip", "content-disposition": `attachment; filename="${stem}-bundle.zip"`, "cache-control": "no-store" } });
}
