/**
 * Inter-annotator agreement for nominal labels (the product's overlap > 1 setting).
 *
 * cohenKappa(a, b): two raters who labeled the same units, a[i] and b[i] for unit i;
 *   kappa = (p_o - p_e) / (1 - p_e), p_o = share of units where they agree,
 *   p_e = sum_c p_a(c) p_b(c) (Cohen 1960, eq. 1). NaN when p_e = 1 (both raters used one
 *   and the same class throughout: chance agreement is total and kappa is undefined, as sklearn).
 *
 * krippendorffAlphaNominal(units): any number of raters, units may have missing values;
 *   each unit lists the values it received. Units with fewer than two values are not pairable and
 *   are left out. With the coincidence matrix o_ck = sum_u (#ordered (c, k) pairs in u) / (m_u - 1),
 *   n_c = sum_k o_ck and n = sum_c n_c:
 *   alpha = 1 - (n - 1) * sum_{c != k} o_ck / sum_{c != k} n_c n_k (Krippendorff 2011, "Computing
 *   Krippendorff's Alpha-Reliability", nominal metric). NaN when fewer than two values are
 *   pairable or every pairable value is the same class (no expected disagreement).
 */
export type Rating = string | number;

export function cohenKappa(a: readonly Rating[], b: readonly Rating[]): number {
  if (a.length !== b.length) throw new RangeError(`cohenKappa: ${a.length} ratings vs ${b.length}`);
  const n = a.length;
  if (n === 0) return Number.NaN;
  const countA = new Map<Rating, number>();
  const countB = new Map<Rating, number>();
  let agree = 0;
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) agree++;
    countA.set(a[i], (countA.get(a[i]) ?? 0) + 1);
    countB.set(b[i], (countB.get(b[i]) ?? 0) + 1);
  }
  const po = agree / n;
  let pe = 0;
  for (const [c, na] of countA) pe += (na / n) * ((countB.get(c) ?? 0) / n);
  if (pe === 1) return Number.NaN;
  return (po - pe) / (1 - pe);
}

export function krippendorffAlphaNominal(units: readonly (readonly Rating[])[]): number {
  // o[c][k] as nested maps; the class set is small (the project's classes)
  const o = new Map<Rating, Map<Rating, number>>();
  const add = (c: Rating, k: Rating, w: number) => {
    let row = o.get(c);
    if (!row) o.set(c, (row = new Map()));
    row.set(k, (row.get(k) ?? 0) + w);
  };
  for (const unit of units) {
    const m = unit.length;
    if (m < 2) continue;
    const w = 1 / (m - 1);
    for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) if (i !== j) add(unit[i], unit[j], w);
  }
  const nc = new Map<Rating, number>();
  let n = 0;
  let observed = 0;
  for (const [c, row] of o) {
    for (const [k, v] of row) {
      nc.set(c, (nc.get(c) ?? 0) + v);
      n += v;
      if (c !== k) observed += v;
    }
  }
  if (n < 2) return Number.NaN;
  let sumN = 0;
  let sumSq = 0;
  for (const v of nc.values()) {
    sumN += v;
    sumSq += v * v;
  }
  // sum_{c != k} n_c n_k = (sum n_c)^2 - sum n_c^2
  const expected = sumN * sumN - sumSq;
  if (expected === 0) return Number.NaN;
  return 1 - ((n - 1) * observed) / expected;
}
