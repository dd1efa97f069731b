/** Accuracy of the surrogate against the simulator on a set of homes, in the shape `model:eval` prints. */
export interface SurrogateAccuracy {
  r2_by_fuel: Record<string, number | null>;
  /** Median absolute percentage error of total site energy (all fuels), over every row. */
  median_ape_total: number;
  /** Median APE of the change in total site energy (baseline − upgraded), per upgrade. */
  median_ape_savings_by_upgrade: Record<string, number>;
  n_homes: number;
  n_rows: number;
}

/** The rows an accuracy is computed over: which home and upgrade each is, and both answers in kWh. */
export interface ScoredRows {
  readonly rows: number;
  readonly outputs: readonly string[];
  /** Upgrade names by index; index 0 is the baseline. */
  readonly upgrades: readonly string[];
  readonly home: Int32Array;
  readonly upgrade: Int32Array;
  /** rows × outputs kWh from the simulator and from the surrogate. */
  readonly simulated: Float32Array;
  readonly predicted: Float32Array;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Coefficient of determination; null when the truth has no variance (R² is undefined). */
export function rSquared(truth: readonly number[], predicted: readonly number[]): number | null {
  const mean = truth.reduce((s, v) => s + v, 0) / truth.length;
  let residual = 0;
  let total = 0;
  truth.forEach((t, k) => {
    residual += (t - predicted[k]!) ** 2;
    total += (t - mean) ** 2;
  });
  return total === 0 ? null : 1 - residual / total;
}

/** |predicted − truth| / |truth| in percent. */
function ape(truth: number, predicted: number): number {
  return (Math.abs(predicted - truth) / Math.abs(truth)) * 100;
}

function rowTotal(values: Float32Array, row: number, outputs: number): number {
  let sum = 0;
  for (let f = 0; f < outputs; f++) sum += values[row * outputs + f]!;
  return sum;
}

/**
 * R² per output, median APE of the total, and median APE of savings per upgrade, where savings of a row
 * = total of its home's baseline row − its own total. Rows whose simulated total or savings is exactly
 * zero have no percentage error and are left out of the medians.
 */
export function scoreAccuracy(scored: ScoredRows): SurrogateAccuracy {
  const { rows, outputs, upgrades, home, upgrade, simulated, predicted } = scored;
  const width = outputs.length;
  const r2_by_fuel: Record<string, number | null> = {};
  outputs.forEach((name, f) => {
    const truth: number[] = [];
    const guess: number[] = [];
    for (let r = 0; r < rows; r++) {
      truth.push(simulated[r * width + f]!);
      guess.push(predicted[r * width + f]!);
    }
    r2_by_fuel[name] = rows === 0 ? null : rSquared(truth, guess);
  });

  const baselineRow = new Map<number, number>();
  for (let r = 0; r < rows; r++) if (upgrade[r] === 0) baselineRow.set(home[r]!, r);
  const totalApe: number[] = [];
  const savingsApe = new Map<number, number[]>();
  for (let r = 0; r < rows; r++) {
    const trueTotal = rowTotal(simulated, r, width);
    const predictedTotal = rowTotal(predicted, r, width);
    if (trueTotal !== 0) totalApe.push(ape(trueTotal, predictedTotal));
    const base = baselineRow.get(home[r]!);
    if (upgrade[r] === 0 || base === undefined) continue;
    const trueSavings = rowTotal(simulated, base, width) - trueTotal;
    if (trueSavings === 0) continue;
    const predictedSavings = rowTotal(predicted, base, width) - predictedTotal;
    const list = savingsApe.get(upgrade[r]!) ?? [];
    list.push(ape(trueSavings, predictedSavings));
    savingsApe.set(upgrade[r]!, list);
  }
  const median_ape_savings_by_upgrade: Record<string, number> = {};
  upgrades.forEach((name, u) => {
    const list = savingsApe.get(u);
    if (u > 0 && list) median_ape_savings_by_upgrade[name] = median(list);
  });
  return {
    r2_by_fuel,
    median_ape_total: totalApe.length ? median(totalApe) : Number.NaN,
    median_ape_savings_by_upgrade,
    n_homes: new Set(home.subarray(0, rows)).size,
    n_rows: rows,
  };
}
