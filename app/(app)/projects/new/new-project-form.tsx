"use client";

import Link from "next/link";
import { useState } from "react";
import { INPUT_CLASS } from "@/app/components/form-styles";

interface MappingCheck {
  projectId: string;
  bundleName: string;
  n: number;
  d: number;
  itemKind: "image" | "text" | "none";
  classNames: string[];
  hasReferenceLabels: boolean;
  clusterings: { name: string; k: number; soft: boolean; space: string | null }[];
  spaces: { name: string; d: number }[];
}

/** A bundle as the user gave it: one .zip, or the files of a folder with their paths inside it. */
type Source = { kind: "zip"; file: File } | { kind: "files"; files: { file: File; path: string }[]; folder: string };

type Phase = { kind: "idle" } | { kind: "uploading"; share: number } | { kind: "importing" } | { kind: "done"; check: MappingCheck } | { kind: "failed"; message: string };

const folderPicker = { webkitdirectory: "", directory: "" } as Record<string, string>;

/** Reads a dropped folder recursively (the File System Entry API is the only way a drop exposes folders). */
async function filesOfEntry(entry: FileSystemEntry, prefix = ""): Promise<{ file: File; path: string }[]> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    return [{ file, path: prefix + entry.name }];
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  const out: { file: File; path: string }[] = [];
  // readEntries answers in pages (100 in Chromium) until it returns an empty page.
  for (;;) {
    const page = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (page.length === 0) return out;
    for (const child of page) out.push(...(await filesOfEntry(child, `${prefix}${entry.name}/`)));
  }
}

function describe(source: Source): string {
  if (source.kind === "zip") return `${source.file.name} (${formatBytes(source.file.size)})`;
  const bytes = source.files.reduce((sum, f) => sum + f.file.size, 0);
  return `${source.folder}/ — ${source.files.length.toLocaleString("en")} files (${formatBytes(bytes)})`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

export function NewProjectForm({ limitBytes }: { limitBytes: number }) {
  const [source, setSource] = useState<Source | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const [dragging, setDragging] = useState(false);
  const busy = phase.kind === "uploading" || phase.kind === "importing";
  const chosenBytes = !source ? 0 : source.kind === "zip" ? source.file.size : source.files.reduce((sum, f) => sum + f.file.size, 0);
  const overLimit = chosenBytes > limitBytes;

  function pickZip(files: FileList | null) {
    const file = files?.[0];
    if (file) setSource({ kind: "zip", file });
  }

  function pickFolder(files: FileList | null) {
    if (!files?.length) return;
    const list = Array.from(files).map((file) => ({ file, path: file.webkitRelativePath || file.name }));
    setSource({ kind: "files", files: list, folder: list[0].path.split("/")[0] });
  }

  async function onDrop(event: React.DragEvent) {
    event.preventDefault();
    setDragging(false);
    const items = Array.from(event.dataTransfer.items);
    const entries = items.map((item) => item.webkitGetAsEntry()).filter((e): e is FileSystemEntry => e !== null);
    if (entries.length === 1 && entries[0].isFile && entries[0].name.toLowerCase().endsWith(".zip")) return pickZip(event.dataTransfer.files);
    const files = (await Promise.all(entries.map((e) => filesOfEntry(e)))).flat();
    if (files.length) setSource({ kind: "files", files, folder: entries.length === 1 ? entries[0].name : "dropped files" });
  }

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!source) return setPhase({ kind: "failed", message: "Choose the bundle first: a .zip, or its folder." });
    if (overLimit) return;
    const fields = new FormData(event.currentTarget);
    const body = new FormData();
    for (const key of ["name", "description"]) body.append(key, String(fields.get(key) ?? ""));
    // one select for the two settings: the mode, and how a clusterwise project asks for a class
    const ask = String(fields.get("ask") ?? "clusterwise");
    body.append("mode", ask === "pairwise" ? "pairwise" : "clusterwise");
    body.append("labelBy", ask === "verify" ? "verify" : "pick");
    if (source.kind === "zip") body.append("bundle", source.file, source.file.name);
    else for (const { file, path } of source.files) body.append("files", file, path);

    // XMLHttpRequest, not fetch: only it reports upload progress.
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/projects");
    xhr.upload.onprogress = (e) => e.lengthComputable && setPhase({ kind: "uploading", share: e.loaded / e.total });
    xhr.upload.onload = () => setPhase({ kind: "importing" });
    xhr.onload = () => {
      let data: { import?: MappingCheck; error?: { message?: string } } | null = null;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        data = null;
      }
      if (xhr.status === 200 && data?.import) setPhase({ kind: "done", check: data.import });
      else setPhase({ kind: "failed", message: data?.error?.message ?? `The server answered ${xhr.status}.` });
    };
    xhr.onerror = () => setPhase({ kind: "failed", message: "The upload was interrupted (network error); try again." });
    setPhase({ kind: "uploading", share: 0 });
    xhr.send(body);
  }

  if (phase.kind === "done") return <MappingCheckView check={phase.check} />;

  return (
    <form onSubmit={onSubmit} className="mt-6 space-y-5 rounded-xl border border-slate-200 bg-white p-6 shadow-sm" aria-label="New project">
      <div className="grid gap-4 sm:grid-cols-3">
        <label className="block sm:col-span-2">
          <span className="text-sm font-medium text-slate-700">Name</span>
          <input name="name" required maxLength={200} className={INPUT_CLASS} />
        </label>
        <label className="block">
          <span className="text-sm font-medium text-slate-700">Annotation mode</span>
          <select name="ask" defaultValue="clusterwise" className={INPUT_CLASS}>
            <option value="clusterwise">clusterwise (which class?)</option>
            <option value="verify">clusterwise, one class at a time (same class as these?)</option>
            <option value="pairwise">pairwise (same class?)</option>
          </select>
        </label>
      </div>
      <label className="block">
        <span className="text-sm font-medium text-slate-700">Description</span>
        <textarea name="description" rows={2} maxLength={2000} className={INPUT_CLASS} />
      </label>

      <div
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`rounded-xl border-2 border-dashed p-8 text-center transition ${dragging ? "border-indigo-500 bg-indigo-50" : "border-slate-300 bg-slate-50"}`}
      >
        <p className="text-sm text-slate-700">Drop the bundle folder or a .zip of it here</p>
        <div className="mt-3 flex justify-center gap-3 text-sm">
          <label className="cursor-pointer rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-50">
            Choose a .zip
            <input type="file" accept=".zip,application/zip" className="sr-only" onChange={(e) => pickZip(e.target.files)} disabled={busy} />
          </label>
          <label className="cursor-pointer rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-50">
            Choose a folder
            <input type="file" multiple {...folderPicker} className="sr-only" onChange={(e) => pickFolder(e.target.files)} disabled={busy} />
          </label>
        </div>
        {source && (
          <p className="mt-3 text-sm text-slate-600" data-testid="chosen-bundle">
            {describe(source)}
          </p>
        )}
        {overLimit && (
          <p role="alert" className="mt-2 text-sm text-red-700">
            This is over the upload limit of {formatBytes(limitBytes)}; import it with npm run cereal -- import on the server.
          </p>
        )}
        <p className="mt-3 text-xs text-slate-500">Upload limit {formatBytes(limitBytes)}.</p>
      </div>

      {phase.kind === "uploading" && (
        <div>
          <div className="flex justify-between text-xs text-slate-600">
            <span>Uploading…</span>
            <span>{Math.round(phase.share * 100)}%</span>
          </div>
          <div role="progressbar" aria-label="Upload" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(phase.share * 100)} className="mt-1 h-2 overflow-hidden rounded-full bg-slate-100">
            <div className="h-full rounded-full bg-indigo-500 transition-[width]" style={{ width: `${phase.share * 100}%` }} />
          </div>
        </div>
      )}
      {phase.kind === "importing" && (
        <p role="status" className="text-sm text-slate-600">
          Uploaded. Checking the bundle and importing its items…
        </p>
      )}
      {phase.kind === "failed" && (
        <div role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
          <p className="font-medium">The bundle was not imported.</p>
          <p className="mt-1 whitespace-pre-wrap font-mono text-xs">{phase.message}</p>
        </div>
      )}

      <div className="flex justify-end gap-3">
        <Link href="/projects" className="rounded-md px-4 py-2 text-sm text-slate-600 hover:text-slate-900">
          Cancel
        </Link>
        <button type="submit" disabled={busy || overLimit} className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-500 disabled:opacity-60">
          {busy ? "Importing…" : "Upload and import"}
        </button>
      </div>
    </form>
  );
}

function MappingCheckView({ check }: { check: MappingCheck }) {
  const rows: [string, string][] = [
    ["Items (N)", check.n.toLocaleString("en")],
    ["Embedding dimensions (D)", String(check.d)],
    ["Item kind", check.itemKind === "none" ? "none (embeddings only)" : check.itemKind],
    ["Reference labels", check.hasReferenceLabels ? "yes (owner-only)" : "no"],
  ];
  return (
    <section className="mt-6 space-y-5 rounded-xl border border-emerald-200 bg-white p-6 shadow-sm" aria-label="Mapping check">
      <div>
        <p role="status" className="text-sm font-medium text-emerald-700">
          Imported bundle {check.bundleName}.
        </p>
        <h2 className="mt-1 text-lg font-semibold">Mapping check</h2>
        <p className="text-sm text-slate-600">What the app read from the bundle. If something is off, delete the project from its settings and upload a fixed bundle.</p>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {rows.map(([label, value]) => (
          <div key={label} className="rounded-lg bg-slate-50 p-3">
            <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
            <dd className="mt-1 font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="grid gap-5 sm:grid-cols-2">
        <div>
          <h3 className="text-sm font-semibold">Clusterings found ({check.clusterings.length})</h3>
          <ul className="mt-2 divide-y divide-slate-100 text-sm">
            {check.clusterings.map((c) => (
              <li key={c.name} className="flex justify-between py-1.5">
                <span className="font-mono">{c.name}</span>
                <span className="text-slate-500">
                  K = {c.k}
                  {c.soft ? " · soft" : ""}
                  {c.space ? ` · ${c.space}` : ""}
                </span>
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h3 className="text-sm font-semibold">Class names ({check.classNames.length})</h3>
          {check.classNames.length ? (
            <ul className="mt-2 flex flex-wrap gap-1.5 text-sm">
              {check.classNames.map((name) => (
                <li key={name} className="rounded-full bg-slate-100 px-2 py-0.5 text-slate-700">
                  {name}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-sm text-slate-600">None: the classes are open; annotators may add them.</p>
          )}
        </div>
      </div>
      <div className="flex justify-end gap-3">
        <Link href={`/projects/${check.projectId}/settings`} className="rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50">
          Settings
        </Link>
        <Link href={`/projects/${check.projectId}`} className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white shadow-sm hover:bg-indigo-500">
          Open project
        </Link>
      </div>
    </section>
  );
}
