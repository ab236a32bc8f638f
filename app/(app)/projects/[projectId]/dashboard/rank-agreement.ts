// lib/ace/spearman.ts imports only the Student t helpers: pure, so it runs in the browser too
import { spearman } from "@/lib/ace/spearman";

/**
 * How far the label-free ranking (ACE) agrees with the Cereal estimates' ranking of one metric:
 * Spearman's rho over the clusterings that have both (ties share their average rank). Null with
 * fewer than 3 such clusterings, or when either side is constant, where rho says nothing.
 */
export function rankAgreement(estimates: ReadonlyMap<string, number>, ace: ReadonlyMap<string, number | null>): { rho: number; n: number } | null {
  const a: number[] = [];
  const b: number[] = [];
  for (const [name, value] of estimates) {
    const score = ace.get(name);
    if (score === null || score === undefined || !Number.isFinite(score) || !Number.isFinite(value)) continue;
    a.push(value);
    b.push(score);
  }
  if (a.length < 3) return null;
  const rho = spearman(a, b);
  return Number.isNaN(rho) ? null : { rho, n: a.length };
}
