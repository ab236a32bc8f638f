/**
 * Holm's step-down correction (S. Holm, "A simple sequentially rejective multiple test
 * procedure", Scand. J. Statist. 6, 1979): with p-values sorted p_(1) <= ... <= p_(m), the
 * adjusted p_(i) = max_{j <= i} min(1, (m - j + 1) p_(j)); H_(i) is rejected at family-wise level
 * alpha when its adjusted value is <= alpha (statsmodels' multipletests(method="holm")).
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((_, i) => i).sort((a, b) => pValues[a] - pValues[b]);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach((index, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * pValues[index]));
    adjusted[index] = running;
  });
  return adjusted;
}

/** Which hypotheses Holm rejects at family-wise error rate alpha. */
export function holmReject(pValues: readonly number[], alpha: number): boolean[] {
  return holmAdjust(pValues).map((p) => p <= alpha);
}
