import fs from "node:fs";
import path from "node:path";
import { zipSync, type Zippable } from "fflate";
import { encodeNpy, parseNpy } from "../lib/data/npy";

export const DEMO = path.join(process.cwd(), "data", "demo");
const npy = (file: string) => parseNpy(new Uint8Array(fs.readFileSync(path.join(DEMO, file))));

/** The first n items' reference labels of the shipped Fashion demo. */
export const demoTruth = (n: number) => Int32Array.from((npy("labels.npy").data as Int32Array).subarray(0, n));

/**
 * The first n items of the shipped Fashion demo as a bundle of their own (a .zip), so a spec
 * never touches the demo projects the workspace specs label, and rounds stay short.
 */
export function demoSubsetBundle(n: number): Buffer {
  const manifest = JSON.parse(fs.readFileSync(path.join(DEMO, "manifest.json"), "utf8"));
  const clusterings = ["kmeans_k5", "kmeans_k10", "gmm_k10"];
  const items = fs.readFileSync(path.join(DEMO, "items.jsonl"), "utf8").trim().split("\n").slice(0, n);
  const files: Zippable = {
    "bundle/manifest.json": new TextEncoder().encode(
      JSON.stringify({
        name: `fashion-${n}`,
        N: n,
        D: manifest.D,
        class_names: manifest.class_names,
        items: "items.jsonl",
        embeddings: "embeddings.npy",
        labels: "labels.npy",
        clusterings: Object.fromEntries(clusterings.map((c) => [c, { file: `clusterings/${c}.npy`, K: manifest.clusterings[c].K }])),
      }),
    ),
    "bundle/embeddings.npy": encodeNpy((npy("embeddings.npy").data as Float32Array).slice(0, n * manifest.D), [n, manifest.D]),
    "bundle/labels.npy": encodeNpy(demoTruth(n), [n]),
    "bundle/items.jsonl": new TextEncoder().encode(items.join("\n") + "\n"),
  };
  for (const c of clusterings) files[`bundle/clusterings/${c}.npy`] = encodeNpy((npy(`clusterings/${c}.npy`).data as Int32Array).slice(0, n), [n]);
  for (const line of items) {
    const image = JSON.parse(line).image as string;
    files[`bundle/${image}`] = new Uint8Array(fs.readFileSync(path.join(DEMO, image)));
  }
  return Buffer.from(zipSync(files));
}
