import type { CerealProblem, TestClustering } from "@/lib/cereal/method/problem";
import { encodeNpy, readNpy, type NpyArray } from "@/lib/data/npy";
import { readSharedArray } from "./array-cache";
import { writeProjectFile } from "./folder";
import { embeddingsFile, referenceLabelsFile } from "./manifest";
import { projectFile, type ProjectFolder } from "./paths";

/**
 * The project's arrays as the estimation code takes them: embeddings, spaces, test clusterings
 * (hard and soft) and reference labels, read from the .npy files the import stored, and the
 * problem a round or a simulation runs on.
 */
export interface ClusteringFiles {
  readonly name: string;
  readonly k: number;
  readonly file: string;
  readonly softFile?: string | null;
}

export const readArray = (project: ProjectFolder, relative: string): Promise<NpyArray> => readNpy(projectFile(project, relative));

/** The main embeddings, N x D row-major. */
export async function readEmbeddings(project: ProjectFolder): Promise<Float32Array> {
  return (await readArray(project, await embeddingsFile(project))).data as Float32Array;
}

/** labels.npy: owner-only (simulations, true values), never sent to annotators. */
export async function readReferenceLabels(project: ProjectFolder): Promise<Int32Array> {
  return (await readArray(project, await referenceLabelsFile(project))).data as Int32Array;
}

/** A clustering's cluster id of every item; `shared`: through the per-process cache of the dashboard's reads (array-cache.ts), an array never to be written into. */
export async function readAssignments(project: ProjectFolder, clustering: Pick<ClusteringFiles, "file">, options: { shared?: boolean } = {}): Promise<Int32Array> {
  return (await (options.shared ? readSharedArray : readArray)(project, clustering.file)).data as Int32Array;
}

/** The project's test clusterings with their soft versions, in the order given. */
export async function readTestClusterings(project: ProjectFolder, clusterings: readonly ClusteringFiles[]): Promise<TestClustering[]> {
  const out: TestClustering[] = [];
  for (const c of clusterings) {
    const assignments = await readAssignments(project, c);
    const soft = c.softFile ? ((await readArray(project, c.softFile)).data as Float32Array) : undefined;
    out.push({ name: c.name, assignments, k: c.k, soft });
  }
  return out;
}

/** What a round or a simulation estimates on: the embeddings and every test clustering. */
export async function loadProblem(project: ProjectFolder & { n: number; d: number; classes: readonly unknown[]; clusterings: readonly ClusteringFiles[] }): Promise<CerealProblem> {
  return {
    embeddings: { data: await readEmbeddings(project), n: project.n, d: project.d },
    numClasses: Math.max(2, project.classes.length),
    clusterings: await readTestClusterings(project, project.clusterings),
  };
}

/** Writes a clustering the app made (candidate clusterings) as int32 [N]. */
export async function writeAssignments(project: ProjectFolder, relative: string, labels: Int32Array) {
  await writeProjectFile(project, relative, encodeNpy(labels, [labels.length]));
}
