/**
 * Who answers the simulator's draws. The oracle answers every draw with the reference label.
 * `simulate --skip-rate P` adds difficulty-dependent non-response (skips and "unsure" answers in
 * the app): a draw is skipped with probability P when its row is hard and P / 5 otherwise, where
 * a row is hard when its reference class differs from the majority class of its cluster in the
 * run's first clustering (a surrogate-free difficulty: the row the clustering gets "wrong"). The
 * skip depends on the class within a cluster, which no weighting by cluster can undo
 * (method/ESTIMATORS.md, "Non-response"). Each stage's skips come from their own seeded stream.
 */
import type { TestClustering } from "../method/problem";
import type { Responder } from "./stage-schedule";
import { Random } from "../../random/named-streams";

/** every draw answered with its reference label */
export function oracleResponder(labels: Int32Array): Responder {
  return (draws) => ({ labels: Int32Array.from(draws, (d) => labels[d.row]), answered: draws.map(() => true) });
}

/** 1 where the row's class differs from its cluster's majority class (ties: the smallest class) */
export function hardRows(labels: Int32Array, clustering: TestClustering, numClasses: number): Uint8Array {
  const counts = new Int32Array(clustering.k * numClasses);
  labels.forEach((y, row) => counts[clustering.assignments[row] * numClasses + y]++);
  const majority = Int32Array.from({ length: clustering.k }, (_, c) => {
    let best = 0;
    for (let y = 1; y < numClasses; y++) if (counts[c * numClasses + y] > counts[c * numClasses + best]) best = y;
    return best;
  });
  return Uint8Array.from(labels, (y, row) => (y === majority[clustering.assignments[row]] ? 0 : 1));
}

/** the oracle, but a draw is skipped with probability `rate` on a hard row and rate / 5 on the others */
export function skippingResponder(labels: Int32Array, hard: Uint8Array, rate: number, seed: number): Responder {
  if (!(rate >= 0 && rate <= 1)) throw new Error(`the skip rate must be a probability in [0, 1], got ${rate}`);
  const oracle = oracleResponder(labels);
  return (draws, stage) => {
    const random = Random.from(seed, "skip", stage);
    return { labels: oracle(draws, stage).labels, answered: draws.map((d) => random.next() >= (hard[d.row] ? rate : rate / 5)) };
  };
}
