/**
 * Where the per-request time (1 / throughput) reaches `ratio` of the bare route's, interpolated linearly
 * between the measured amounts of work that bracket it; null when none of them does.
 */
export function workAtRatio(
  bareRequestsPerSecond: number,
  measured: readonly { workMicroseconds: number; requestsPerSecond: number }[],
  ratio: number,
): number | null {
  const budget = 1 / (ratio * bareRequestsPerSecond);
  for (let i = 1; i < measured.length; i++) {
    const low = measured[i - 1]!;
    const high = measured[i]!;
    const [tLow, tHigh] = [1 / low.requestsPerSecond, 1 / high.requestsPerSecond];
    if (tLow <= budget && budget <= tHigh && tHigh > tLow) {
      return (
        low.workMicroseconds +
        ((budget - tLow) / (tHigh - tLow)) * (high.workMicroseconds - low.workMicroseconds)
      );
    }
  }
  return null;
}
