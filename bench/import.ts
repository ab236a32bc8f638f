/**
 * Import time and memory at N = 100k and 1M (issue 6): generates a bundle (D = 128 float32
 * embeddings, one hard clustering, reference labels, items as text lines or none) into a temp
 * folder, written in chunks so that generating 1M x 128 needs no 512 MB buffer, then imports it
 * into a fresh data folder the way `cereal import` does and, with --upload, the way the upload
 * route does (multipart streamed from disk through the route handler).
 *
 *   node --import tsx bench/import.ts                                  # N = 100000, items as text
 *   node --import tsx bench/import.ts --n 100000,1000000 --items none --upload
 *
 * Prints one line per figure (wall seconds; peak RSS of this process, sampled every 50 ms) and a
 * JSON line per N. Not a timed test: figures depend on the machine and its load.
 */
import { createWriteStream, openAsBlob } from "node:fs";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { writeNpyStreamed } from "@/lib/data/npy";
import { validateBundle } from "@/lib/data/validate-bundle";

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

const sizes = arg("n", "100000").split(",").map(Number);
const d = Number(arg("d", "128"));
const itemsKind = arg("items", "text") as "text" | "none";
const viaUpload = process.argv.includes("--upload");
const K = 20;
const ROWS_PER_CHUNK = 8192;


async function generateBundle(dir: string, n: number) {
  await mkdir(path.join(dir, "clusterings"), { recursive: true });
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32) * 2 - 1;
  await writeNpyStreamed(path.join(dir, "embeddings.npy"), "float32", [n, d], (_, count) => Float32Array.from({ length: count * d }, random));
  await writeNpyStreamed(path.join(dir, "labels.npy"), "int32", [n], (first, count) => Int32Array.from({ length: count }, (_, i) => (first + i) % 10));
  await writeNpyStreamed(path.join(dir, "clusterings", "kmeans.npy"), "int32", [n], (first, count) => Int32Array.from({ length: count }, (_, i) => ((first + i) * 7) % K));
  const manifest: Record<string, unknown> = { name: `bench-${n}`, N: n, D: d, labels: "labels.npy", clusterings: { kmeans: { file: "clusterings/kmeans.npy", K } } };
  if (itemsKind === "text") {
    const out = createWriteStream(path.join(dir, "items.jsonl"));
    for (let first = 0; first < n; first += ROWS_PER_CHUNK) {
      let chunk = "";
      for (let i = first; i < Math.min(n, first + ROWS_PER_CHUNK); i++) chunk += JSON.stringify({ id: `doc-${i}`, text: `synthetic document ${i} about topic ${i % 10}` }) + "\n";
      if (!out.write(chunk)) await once(out, "drain");
    }
    out.end();
    await once(out, "finish");
    manifest.items = "items.jsonl";
  }
  await writeFile(path.join(dir, "manifest.json"), JSON.stringify(manifest));
}

async function measure<T>(fn: () => Promise<T>): Promise<{ result: T; seconds: number; peakRssMb: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  try {
    const result = await fn();
    return { result, seconds: (performance.now() - started) / 1000, peakRssMb: Math.round(Math.max(peak, process.memoryUsage().rss) / 2 ** 20) };
  } finally {
    clearInterval(timer);
  }
}

async function main() {
  const root = await mkdtemp(path.join(os.tmpdir(), "cereal-bench-import-"));
  process.env.CEREAL_DATA_DIR = path.join(root, "data");
  process.env.NEXTAUTH_SECRET ??= "bench-secret";
  process.env.CEREAL_UPLOAD_LIMIT_MB ??= "8192";
  delete process.env.DATABASE_URL;
  // imported after the environment points at the temp data folder
  const { migrateConfiguredDatabase } = await import("@/lib/server/migrate");
  const { serverConfig } = await import("@/lib/server/config");
  const { db } = await import("@/lib/server/db");
  const { importBundle } = await import("@/lib/server/imports/imports");
  const { createTestUser, requestAs, routeContext } = await import("@/lib/server/http/test-requests");
  await migrateConfiguredDatabase();
  const owner = await createTestUser("RESEARCHER");
  try {
    for (const n of sizes) {
      const bundle = path.join(root, `bundle-${n}`);
      const gen = await measure(() => generateBundle(bundle, n));
      console.log(`N=${n} D=${d} items=${itemsKind}: generated the bundle in ${gen.seconds.toFixed(1)} s`);
      const validate = await measure(() => validateBundle(bundle));
      console.log(`N=${n}: validate ${validate.seconds.toFixed(1)} s (peak RSS ${validate.peakRssMb} MB)`);
      const cli = await measure(() => importBundle(bundle, owner.id, { name: `bench ${n}` }));
      const rows = await db().item.count({ where: { projectId: cli.result.projectId } });
      console.log(`N=${n}: cereal import (validate + copy + ${rows} item rows) ${cli.seconds.toFixed(1)} s (peak RSS ${cli.peakRssMb} MB)`);
      const figures: Record<string, unknown> = { n, d, items: itemsKind, validateSeconds: validate.seconds, importSeconds: cli.seconds, importPeakRssMb: cli.peakRssMb, itemRows: rows };
      if (viaUpload) {
        const { POST } = await import("@/app/api/projects/route");
        const upload = await measure(async () => {
          const form = new FormData();
          form.append("name", `bench ${n} upload`);
          for (const file of ["manifest.json", "embeddings.npy", "labels.npy", "clusterings/kmeans.npy", ...(itemsKind === "text" ? ["items.jsonl"] : [])])
            form.append("files", await openAsBlob(path.join(bundle, file)), file);
          const response = await POST(await requestAs(owner, "/api/projects", { method: "POST", body: form }), routeContext());
          if (response.status !== 200) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
          return response.json();
        });
        console.log(`N=${n}: upload route (multipart from disk, staged, imported) ${upload.seconds.toFixed(1)} s (peak RSS ${upload.peakRssMb} MB)`);
        figures.uploadSeconds = upload.seconds;
        figures.uploadPeakRssMb = upload.peakRssMb;
      }
      console.log(JSON.stringify(figures));
      await db().project.deleteMany();
      await rm(path.join(serverConfig().dataDir, "projects"), { recursive: true, force: true });
      await rm(bundle, { recursive: true, force: true });
    }
  } finally {
    await db().$disconnect();
    await rm(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
