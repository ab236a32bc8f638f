/**
 * lib/random: the seeded streams every random choice of the project draws from (sfc32 in
 * streams.ts, named child streams and categorical draws in named-streams.ts; the trainers'
 * mulberry32 in models/ builds on RandomStream). A leaf: it imports nothing of the project.
 */
export type { RandomSource } from "./streams";
export { createRandom, permutation, RandomStream, sampleWithoutReplacement, Sfc32 } from "./streams";
export { deriveSeed, Random } from "./named-streams";
