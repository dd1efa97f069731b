import { RESULT_FUELS, type ClusterStatisticRow } from '../../schemas/rem-data.ts';
import { FUELS, type Upgrade } from '../../schemas/rem.ts';
import {
  MEAN,
  MEDIAN,
  P20,
  P80,
  SUMMARY_LENGTH,
  fromTenThousandths,
  summarizeInto,
  toTenThousandths,
} from './distribution.ts';
import type { FuelPrices } from './fuel-prices.ts';

/**
 * REM's answer for one group of sample homes (notes §1.3, §5.4), from each home's annual site kWh per fuel
 * before and after each upgrade:
 * - per home and fuel: energy in the fuel's unit; emissions = energy × factor (kgCO2e); cost = volumetric
 *   rate × energy + 12 × the monthly fixed charge when the fuel is used in that home's baseline (the same
 *   charge stays in the upgrade, so it cancels in the delta); delta = upgrade − baseline;
 * - total = the sum over fuels (energy in kWh);
 * - homes an upgrade does not apply to are dropped from that upgrade's baseline, upgrade and delta, and
 *   counted in `num_excluded_samples`; an upgrade that applies to no home has no lines;
 * - every statistic is rounded to 4 decimals, and mean(upgrade) is mean(baseline) + mean(delta) counted in
 *   ten-thousandths, so the identity holds exactly at the reported precision.
 */

/** The cluster fields every line repeats. */
export type ClusterIdentity = Pick<
  ClusterStatisticRow,
  'cluster_id' | 'county_fips' | 'state' | 'heating_fuel' | 'water_heater_fuel'
>;

/**
 * One upgrade's homes: `applicable` is 1 for a home the upgrade applies to, 0 for one it excludes; `kwh`
 * holds homes × FUELS kWh (row-major), rows of excluded homes ignored.
 */
export interface UpgradeEnergy {
  upgrade: Upgrade;
  applicable: Uint8Array;
  kwh: Float64Array;
}

const METRICS = ['energy', 'emissions', 'cost'] as const;
const SCENARIO_COUNT = 3; // baseline, upgrade, delta (SCENARIOS order)
const FUEL_COUNT = FUELS.length;
const TOTAL = FUEL_COUNT; // index of `total` in RESULT_FUELS
/** Per-home series of one upgrade: one per result fuel × metric × scenario, in that nesting. */
const SERIES = RESULT_FUELS.length * METRICS.length * SCENARIO_COUNT;
const seriesOf = (fuel: number, metric: number, scenario: number): number =>
  (fuel * METRICS.length + metric) * SCENARIO_COUNT + scenario;

// One upgrade's per-home values (series after series, n values each) and their summaries (SUMMARY_LENGTH
// per series), in buffers every upgrade of every cluster reuses: each upgrade is summarised and its lines
// built before the next overwrites them. Allocating them per upgrade, with a view and a Summary object per
// series, was a fifth of a simulate worker's allocation, the garbage its GC had to keep up with.
let homeValues = new Float64Array(0);
const summaries = new Float64Array(SERIES * SUMMARY_LENGTH);

export function clusterStatistics(
  cluster: ClusterIdentity,
  baselineKwh: Float64Array,
  upgrades: readonly UpgradeEnergy[],
  prices: FuelPrices,
): ClusterStatisticRow[] {
  const homes = baselineKwh.length / FUEL_COUNT;
  if (!Number.isInteger(homes)) throw new Error(`baseline holds ${baselineKwh.length} values, not homes × 4`);
  const rows: ClusterStatisticRow[] = [];
  for (const { upgrade, applicable, kwh } of upgrades) {
    if (applicable.length !== homes || kwh.length !== baselineKwh.length)
      throw new Error(`${upgrade}: ${applicable.length} homes given for a cluster of ${homes}`);
    const included: number[] = [];
    for (let i = 0; i < homes; i++) if (applicable[i]) included.push(i);
    const n = included.length;
    if (n === 0) continue;
    writeHomeValues(included, baselineKwh, upgrade === 'baseline' ? baselineKwh : kwh, prices);
    for (let series = 0; series < SERIES; series++)
      summarizeInto(homeValues, series * n, n, summaries, series * SUMMARY_LENGTH);
    const excluded = homes - n;
    RESULT_FUELS.forEach((fuel, f) => {
      const unit = fuel === 'total' ? 'kWh' : prices[fuel].unit;
      rows.push(statisticLine(cluster, upgrade, fuel, f, unit, 'baseline', n, excluded));
      if (upgrade !== 'baseline')
        rows.push(
          statisticLine(cluster, upgrade, fuel, f, unit, 'upgrade', n, excluded),
          statisticLine(cluster, upgrade, fuel, f, unit, 'delta', n, excluded),
        );
    });
  }
  return rows;
}

const SCENARIO_INDEX = { baseline: 0, upgrade: 1, delta: 2 } as const;

/** One line of the statistics, from the summaries of the upgrade just summarised. */
function statisticLine(
  cluster: ClusterIdentity,
  upgrade: Upgrade,
  fuel: ClusterStatisticRow['fuel'],
  f: number,
  energy_unit: ClusterStatisticRow['energy_unit'],
  scenario: ClusterStatisticRow['scenario'],
  num_samples: number,
  num_excluded_samples: number,
): ClusterStatisticRow {
  const s = SCENARIO_INDEX[scenario];
  const stat = (metric: number, statistic: number): number =>
    rounded(summaries[seriesOf(f, metric, s) * SUMMARY_LENGTH + statistic]!);
  // One object literal with every key written out: the shape V8 builds once and reuses. Spreading the
  // cluster and adding 16 keys to it made each line a dictionary-mode object (~6 kB of hash tables).
  return {
    cluster_id: cluster.cluster_id,
    county_fips: cluster.county_fips,
    state: cluster.state,
    heating_fuel: cluster.heating_fuel,
    water_heater_fuel: cluster.water_heater_fuel,
    upgrade,
    fuel,
    scenario,
    energy_unit,
    energy_mean: roundedMean(f, 0, s),
    energy_median: stat(0, MEDIAN),
    energy_p20: stat(0, P20),
    energy_p80: stat(0, P80),
    emissions_mean: roundedMean(f, 1, s),
    emissions_median: stat(1, MEDIAN),
    emissions_p20: stat(1, P20),
    emissions_p80: stat(1, P80),
    cost_mean: roundedMean(f, 2, s),
    cost_median: stat(2, MEDIAN),
    cost_p20: stat(2, P20),
    cost_p80: stat(2, P80),
    num_samples,
    num_excluded_samples,
  };
}

/** Scenario `s`'s mean, rounded; the upgrade's mean is baseline + delta in ten-thousandths. */
function roundedMean(f: number, metric: number, s: number): number {
  const mean = (scenario: number): number =>
    summaries[seriesOf(f, metric, scenario) * SUMMARY_LENGTH + MEAN]!;
  return s === 1
    ? fromTenThousandths(toTenThousandths(mean(0)) + toTenThousandths(mean(2)))
    : rounded(mean(s));
}

const rounded = (value: number): number => fromTenThousandths(toTenThousandths(value));

/** Fills homeValues with the included homes' series: series k is homeValues[k × n … (k + 1) × n). */
function writeHomeValues(
  included: readonly number[],
  baselineKwh: Float64Array,
  upgradeKwh: Float64Array,
  prices: FuelPrices,
): void {
  const n = included.length;
  if (homeValues.length < SERIES * n) homeValues = new Float64Array(SERIES * n);
  const values = homeValues;
  // Each fuel's price fields in typed arrays, read once: the prices of each new state are new objects, and
  // reading them in the loop made V8 recompile it as their shapes came in.
  const kwhPerUnit = Float64Array.from(FUELS, (fuel) => prices[fuel].kwhPerUnit);
  const volumetric = Float64Array.from(FUELS, (fuel) => prices[fuel].volumetric);
  const fixedAnnual = Float64Array.from(FUELS, (fuel) => prices[fuel].fixedAnnual);
  const kgCo2ePerUnit = Float64Array.from(FUELS, (fuel) => prices[fuel].kgCo2ePerUnit);
  // Baseline and upgrade values home by home; the deltas after, series by series.
  const before = (fuel: number, metric: number): number => seriesOf(fuel, metric, 0) * n;
  const after = (fuel: number, metric: number): number => seriesOf(fuel, metric, 1) * n;
  for (let j = 0; j < n; j++) {
    const i = included[j]!;
    let kwhBefore = 0;
    let kwhAfter = 0;
    let kgBefore = 0;
    let kgAfter = 0;
    let costBefore = 0;
    let costAfter = 0;
    for (let f = 0; f < FUEL_COUNT; f++) {
      const kwhOfFuelBefore = Math.max(0, baselineKwh[i * FUEL_COUNT + f]!);
      const kwhOfFuelAfter = Math.max(0, upgradeKwh[i * FUEL_COUNT + f]!);
      const fixed = kwhOfFuelBefore > 0 ? fixedAnnual[f]! : 0;
      const unitsBefore = kwhOfFuelBefore / kwhPerUnit[f]!;
      const unitsAfter = kwhOfFuelAfter / kwhPerUnit[f]!;
      const costBeforeOfFuel = volumetric[f]! * unitsBefore + fixed;
      const costAfterOfFuel = volumetric[f]! * unitsAfter + fixed;
      values[before(f, 0) + j] = unitsBefore;
      values[after(f, 0) + j] = unitsAfter;
      values[before(f, 1) + j] = unitsBefore * kgCo2ePerUnit[f]!;
      values[after(f, 1) + j] = unitsAfter * kgCo2ePerUnit[f]!;
      values[before(f, 2) + j] = costBeforeOfFuel;
      values[after(f, 2) + j] = costAfterOfFuel;
      kwhBefore += kwhOfFuelBefore;
      kwhAfter += kwhOfFuelAfter;
      kgBefore += unitsBefore * kgCo2ePerUnit[f]!;
      kgAfter += unitsAfter * kgCo2ePerUnit[f]!;
      costBefore += costBeforeOfFuel;
      costAfter += costAfterOfFuel;
    }
    values[before(TOTAL, 0) + j] = kwhBefore;
    values[after(TOTAL, 0) + j] = kwhAfter;
    values[before(TOTAL, 1) + j] = kgBefore;
    values[after(TOTAL, 1) + j] = kgAfter;
    values[before(TOTAL, 2) + j] = costBefore;
    values[after(TOTAL, 2) + j] = costAfter;
  }
  for (let fuel = 0; fuel < RESULT_FUELS.length; fuel++) {
    for (let metric = 0; metric < METRICS.length; metric++) {
      const delta = seriesOf(fuel, metric, 2) * n;
      for (let j = 0; j < n; j++)
        values[delta + j] = values[after(fuel, metric) + j]! - values[before(fuel, metric) + j]!;
    }
  }
}
