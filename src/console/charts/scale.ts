/** The top of a chart's value axis: the smallest 1, 2 or 5 × 10^n at or above the largest value (at least 1). */
export function niceMax(max: number): number {
  if (!(max > 1)) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}
