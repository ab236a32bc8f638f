/**
 * The tests' simulation problem on the embedded digits bundle (data/digits): its embeddings, classes and the named
 * clusterings, with the reference labels as the oracle. The bundle is read once per test file.
 */
import { loadBundle, type Bundle } from "@/lib/data/bundle";
import type { CerealProblem } from "../method/problem";

let digits: Promise<Bundle> | undefined;

export async function digitsProblem(clusterings: readonly string[] = ["kmeans_k10"]): Promise<{ problem: CerealProblem; labels: Int32Array }> {
  const bundle = await (digits ??= loadBundle("data/digits"));
  const problem: CerealProblem = {
    embeddings: { data: bundle.embeddings, n: bundle.n, d: bundle.d },
    numClasses: bundle.numClasses,
    clusterings: bundle.clusterings.filter((c) => clusterings.includes(c.name)),
  };
  return { problem, labels: bundle.labels! };
}
