/**
 * `cereal import` and `cereal add-clustering`: the same services the upload routes call
 * (lib/server/imports/imports.ts, lib/server/projects/clusterings.ts), run against the configured data folder, so that a
 * project imported here is identical to one uploaded in the browser.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { addClustering } from "@/lib/server/projects/clusterings";
import { db } from "@/lib/server/db";
import { AppError } from "@/lib/server/errors";
import { importBundle, mappingCheck } from "@/lib/server/imports/imports";
import { migrateConfiguredDatabase } from "@/lib/server/migrate";

export const PROJECT_USAGE = `  cereal import DIR --name NAME --owner EMAIL [--description TEXT] [--mode clusterwise|pairwise]
  cereal add-clustering --project ID --name NAME --file HARD.npy [--soft SOFT.npy] [--k K]`;

/** A failure the user fixes by changing the command (printed with the usage). */
export class CommandError extends Error {}

export async function service<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    // AppError messages are written for a person; the HTTP status means nothing here.
    if (error instanceof AppError) throw new Error(error.message);
    throw error;
  }
}

export async function runImport(argv: string[], print: (line: string) => void = console.log) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: "string" }, owner: { type: "string" }, description: { type: "string" }, mode: { type: "string" } },
  });
  if (positionals.length !== 1) throw new CommandError("import takes one bundle folder");
  if (!values.name) throw new CommandError("--name is required");
  if (!values.owner) throw new CommandError("--owner is required (the email of an existing researcher or admin)");
  await migrateConfiguredDatabase();
  const owner = await db().user.findUnique({ where: { email: values.owner.toLowerCase() } });
  if (!owner) throw new CommandError(`no user with email ${values.owner}; create it on the Users page first`);
  if (owner.role === "ANNOTATOR") throw new CommandError(`${values.owner} is an annotator; only researchers and admins own projects`);
  const started = performance.now();
  const { projectId, summary } = await service(() =>
    importBundle(resolve(positionals[0]), owner.id, { name: values.name!, description: values.description, mode: values.mode as "clusterwise" | "pairwise" | undefined }),
  );
  const check = mappingCheck(projectId, summary);
  print(`imported ${summary.name} as project ${projectId} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  print(`  N = ${check.n}, D = ${check.d}, items: ${check.itemKind}, classes: ${check.classNames.join(", ") || "(none)"}`);
  print(`  clusterings: ${check.clusterings.map((c) => `${c.name} (K = ${c.k}${c.soft ? ", soft" : ""})`).join(", ")}`);
  return check;
}

export async function runAddClustering(argv: string[], print: (line: string) => void = console.log) {
  const { values } = parseArgs({
    args: argv,
    options: { project: { type: "string" }, name: { type: "string" }, file: { type: "string" }, soft: { type: "string" }, k: { type: "string" } },
  });
  if (!values.project || !values.name || !values.file) throw new CommandError("add-clustering needs --project, --name and --file");
  await migrateConfiguredDatabase();
  if (!(await db().project.findUnique({ where: { id: values.project } }))) throw new CommandError(`no project with id ${values.project}`);
  const added = await service(() =>
    addClustering(values.project!, { name: values.name!, k: values.k }, { file: resolve(values.file!), soft: values.soft ? resolve(values.soft) : undefined }),
  );
  print(`added clustering ${added.name} (K = ${added.k}${added.soft ? ", soft" : ""}) to project ${values.project}`);
  return added;
}
