/**
 * Running time of the candidate clusterings (k-means, spectral) at N = 1797 (digits, raw pixels,
 * D = 64) and at N = 20 000, with NMI against the digit labels. The larger set keeps the digits
 * and adds seeded in-class mixtures l a + (1 - l) b + N(0, 1) of two digits a, b of one class
 * (plain jittered copies would make each point's nearest neighbours its own copies and cut the
 * kNN graph into ~N / 1797 components). Run: node --import tsx bench/clustering.ts [maxN]
 */
import { readNpy } from "@/lib/data/npy";
import { makeCandidateClustering, CLUSTERING_METHODS } from "@/lib/clustering";
import { nmi } from "@/lib/metrics";
import { createRandom } from "@/lib/random";

const maxN = Number(process.argv[2] ?? 20_000);
const space = await readNpy("data/digits-spaces/spaces/raw.npy");
const labels = (await readNpy("data/digits-spaces/labels.npy")).data as Int32Array;
const [n0, d] = space.shape;

function mixtures(n: number): { x: Float32Array; y: Int32Array } {
  const random = createRandom(1);
  const byClass: number[][] = Array.from({ length: 10 }, () => []);
  labels.forEach((c, i) => byClass[c].push(i));
  const x = new Float32Array(n * d);
  const y = new Int32Array(n);
  x.set(space.data as Float32Array);
  y.set(labels);
  for (let i = n0; i < n; i++) {
    const members = byClass[random.int(10)];
    const a = members[random.int(members.length)];
    const b = members[random.int(members.length)];
    const l = random.next();
    y[i] = labels[a];
    for (let j = 0; j < d; j++) {
      const gauss = Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
      x[i * d + j] = l * space.data[a * d + j] + (1 - l) * space.data[b * d + j] + gauss;
    }
  }
  return { x, y };
}

for (const n of [n0, maxN].filter((v, i, all) => all.indexOf(v) === i)) {
  const { x, y } = n === n0 ? { x: space.data as Float32Array, y: labels } : mixtures(n);
  for (const method of CLUSTERING_METHODS) {
    const r = await makeCandidateClustering(x, n, d, { method, k: 10, seed: 0 });
    console.log(`N=${n} D=${d} ${method.padEnd(8)} k=10  ${r.seconds.toFixed(2)} s  NMI ${nmi(y, r.labels).toFixed(4)}`);
  }
}
