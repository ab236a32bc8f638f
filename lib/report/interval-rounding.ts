/**
 * Numbers rounded to what their interval supports: two significant digits of the interval's
 * width fix the decimals of the estimate and both bounds alike (the convention of reporting
 * a value to the precision of its uncertainty). Without an interval, three decimals.
 */
export const DEFAULT_DECIMALS = 3;
const MIN_DECIMALS = 1;
const MAX_DECIMALS = 6;

export function decimalsForWidth(width: number | null): number {
  if (width === null || !Number.isFinite(width) || width <= 0) return DEFAULT_DECIMALS;
  return Math.min(MAX_DECIMALS, Math.max(MIN_DECIMALS, 1 - Math.floor(Math.log10(width))));
}

/** Fixed decimals without "-0.00". */
export function fixed(value: number, decimals: number): string {
  const text = value.toFixed(decimals);
  return Number(text) === 0 ? (0).toFixed(decimals) : text;
}

export interface RoundedEstimate {
  readonly estimate: string;
  readonly lo: string | null;
  readonly hi: string | null;
  readonly decimals: number;
}

export function roundEstimate(value: number, lo: number | null, hi: number | null): RoundedEstimate {
  const decimals = decimalsForWidth(lo === null || hi === null ? null : hi - lo);
  return { estimate: fixed(value, decimals), lo: lo === null ? null : fixed(lo, decimals), hi: hi === null ? null : fixed(hi, decimals), decimals };
}
