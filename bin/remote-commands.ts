/**
 * `cereal remote`: drive a running Cereal Studio server over its API with an access token, as
 * a script on another machine would: list projects, import a bundle folder (streamed, the same
 * multipart upload the browser's import sends), watch a project's status, download exports.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { CommandError } from "./project-commands";
import { download, getJson, uploadMultipart, type Remote, type UploadFile } from "./remote-client";

export const REMOTE_USAGE = `  cereal remote [--server URL] [--token TOKEN] projects
  cereal remote ... import DIR --name NAME [--description TEXT] [--mode clusterwise|pairwise]
  cereal remote ... status PROJECT                (PROJECT: an id or an exact name)
  cereal remote ... export PROJECT --kind labels|items|estimates|config|bundle [--format csv|jsonl|parquet] --out FILE
                  (--server and --token default to CEREAL_SERVER and CEREAL_TOKEN; make a token under your name > Access tokens)`;

const KINDS = ["labels", "items", "estimates", "config", "bundle"] as const;
const FORMATS = ["csv", "jsonl", "parquet"] as const;

interface ProjectRow {
  id: string;
  name: string;
  role: string;
  mode: string;
  labels: number;
  budget: number;
  n: number;
  lastEstimate: { round: number; values: { clustering: string; value: number }[] } | null;
}

type Estimates = Record<string, Record<string, { value: number; lo: number | null; hi: number | null }>>;
interface Progress {
  labels: number;
  budget: number;
  paused: boolean;
  stages: { latest: number; settled: number; fresh: number; batchSize: number } | null;
  round: { index: number; status: string; error: string | null } | null;
  lastRound: { index: number; nLabels: number; finishedAt: string | null } | null;
  estimates: Estimates | null;
}

/** Every file under `dir`, named by its path inside it (what a browser sends for a picked folder). */
async function bundleFiles(dir: string, prefix = ""): Promise<UploadFile[]> {
  const entries = await readdir(path.join(dir, prefix), { withFileTypes: true }).catch(() => {
    throw new CommandError(`${path.join(dir, prefix)} is not a folder; import takes the bundle's folder`);
  });
  const files: UploadFile[] = [];
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const rel = path.posix.join(prefix, e.name);
    if (e.isDirectory()) files.push(...(await bundleFiles(dir, rel)));
    else if (e.isFile()) files.push({ field: "files", name: rel, path: path.join(dir, rel) });
  }
  return files;
}

async function findProject(remote: Remote, key: string): Promise<ProjectRow> {
  const { projects } = await getJson<{ projects: ProjectRow[] }>(remote, "/api/projects");
  const found = projects.find((p) => p.id === key) ?? projects.filter((p) => p.name === key);
  if (!Array.isArray(found)) return found;
  if (found.length === 1) return found[0];
  if (found.length > 1) throw new CommandError(`${found.length} projects are named '${key}'; give the id (${found.map((p) => p.id).join(", ")})`);
  throw new CommandError(`no project '${key}' among yours (${projects.map((p) => p.name).join(", ") || "none"}); cereal remote projects lists them`);
}

const interval = (e: { lo: number | null; hi: number | null }) => (e.lo === null || e.hi === null ? "" : ` [${e.lo.toFixed(3)}, ${e.hi.toFixed(3)}]`);

export async function runRemote(argv: string[], print: (line: string) => void = console.log, env: Record<string, string | undefined> = process.env, progress: NodeJS.WritableStream | null = process.stderr) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      server: { type: "string" },
      token: { type: "string" },
      name: { type: "string" },
      description: { type: "string" },
      mode: { type: "string" },
      kind: { type: "string" },
      format: { type: "string" },
      out: { type: "string" },
    },
  });
  const server = values.server ?? env.CEREAL_SERVER;
  const token = values.token ?? env.CEREAL_TOKEN;
  if (!server) throw new CommandError("remote needs --server URL (or CEREAL_SERVER), e.g. https://cereal.example.org");
  if (!token) throw new CommandError("remote needs --token TOKEN (or CEREAL_TOKEN); make one under your name > Access tokens");
  let serverUrl: URL;
  try {
    serverUrl = new URL(server);
  } catch {
    throw new CommandError(`--server must be a URL such as https://cereal.example.org, got '${server}'`);
  }
  const remote: Remote = { server: serverUrl, token, progress };
  const [command, target, ...extra] = positionals;
  if (extra.length) throw new CommandError(`unexpected arguments: ${extra.join(" ")}`);

  if (command === "projects") {
    const { projects } = await getJson<{ projects: ProjectRow[] }>(remote, "/api/projects");
    for (const p of projects) {
      const best = p.lastEstimate?.values.reduce((a, b) => (b.value > a.value ? b : a));
      print(`${p.id}  ${p.name}  (${p.role.toLowerCase()}, ${p.mode}, ${p.n} items, ${p.labels}/${p.budget} labels${best ? `, best NMI ${best.value.toFixed(3)} ${best.clustering}` : ""})`);
    }
    return { projects };
  }
  if (command === "import") {
    if (!target) throw new CommandError("import takes the bundle folder: cereal remote import DIR --name NAME");
    if (!values.name) throw new CommandError("import needs --name NAME (the project's name)");
    const files = await bundleFiles(path.resolve(target));
    if (files.length === 0) throw new CommandError(`${target} holds no files`);
    const fields: Record<string, string> = { name: values.name, ...(values.description ? { description: values.description } : {}), ...(values.mode ? { mode: values.mode } : {}) };
    const { import: done } = await uploadMultipart<{ import: { projectId: string; n: number; d: number; clusterings: { name: string }[] } }>(remote, "/api/projects", fields, files);
    print(`imported ${values.name} as ${done.projectId}: ${done.n} items, ${done.d} dimensions, ${done.clusterings.length} clusterings`);
    return done;
  }
  if (command === "status") {
    if (!target) throw new CommandError("status takes a project id or name");
    const project = await findProject(remote, target);
    const status = await getJson<Progress>(remote, `/api/projects/${project.id}/progress`);
    print(`${project.name} (${project.id}): ${status.labels}/${status.budget} labels${status.paused ? ", paused" : ""}`);
    if (status.stages) print(`stages drawn through ${status.stages.latest}, settled through ${status.stages.settled}; ${status.stages.fresh}/${status.stages.batchSize} fresh labels toward the next round`);
    if (status.round) print(`round ${status.round.index} ${status.round.status}${status.round.error ? `: ${status.round.error}` : ""}`);
    if (status.lastRound) print(`last round ${status.lastRound.index} at ${status.lastRound.nLabels} labels, finished ${status.lastRound.finishedAt ?? "-"}`);
    for (const [clustering, metrics] of Object.entries(status.estimates ?? {}).sort()) {
      if (metrics.nmi) print(`  ${clustering}: NMI ${metrics.nmi.value.toFixed(3)}${interval(metrics.nmi)}`);
    }
    return status;
  }
  if (command === "export") {
    if (!target) throw new CommandError("export takes a project id or name");
    const kind = values.kind as (typeof KINDS)[number] | undefined;
    if (!kind || !KINDS.includes(kind)) throw new CommandError(`export needs --kind ${KINDS.join("|")}`);
    if (values.format && (!FORMATS.includes(values.format as (typeof FORMATS)[number]) || (kind !== "labels" && kind !== "items")))
      throw new CommandError(`--format is ${FORMATS.join("|")}, for labels and items only`);
    if (!values.out) throw new CommandError("export needs --out FILE");
    const project = await findProject(remote, target);
    const query = values.format ? `?format=${values.format}` : "";
    const bytes = await download(remote, `/api/projects/${project.id}/exports/${kind}${query}`, path.resolve(values.out));
    print(`wrote ${kind}${values.format ? ` (${values.format})` : ""} of ${project.name} to ${values.out}: ${bytes} bytes`);
    return { bytes };
  }
  throw new CommandError(`remote commands are projects, import, status and export${command ? `, not '${command}'` : ""}`);
}
