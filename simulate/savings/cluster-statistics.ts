import { RESULT_FUELS, type ClusterStatisticRow } from '../../schemas/rem-data.ts';
import { FUELS, type Upgrade } from '../../schemas/rem.ts';
import { fromTenThousandths, summarize, toTenThousandths, type Summary } from './distribution.ts';
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

/** One upgrade's homes: `kwh` holds homes × FUELS kWh (row-major); rows of excluded homes are ignored. */
export interface UpgradeEnergy {
  upgrade: Upgrade;
  applicable: readonly boolean[];
  kwh: Float64Array;
}

const METRICS = ['energy', 'emissions', 'cost'] as const;
const SCENARIO_COUNT = 3; // baseline, upgrade, delta (SCENARIOS order)
const FUEL_COUNT = FUELS.length;
const TOTAL = FUEL_COUNT; // index of `total` in RESULT_FUELS

/** Per-home values of one upgrade: [resultFuel][metric][scenario] → one value per included home. */
type HomeValues = Float64Array[][][];

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
    if (included.length === 0) continue;
    const values = homeValues(included, baselineKwh, upgrade === 'baseline' ? baselineKwh : kwh, prices);
    const excluded = homes - included.length;
    RESULT_FUELS.forEach((fuel, f) => {
      const summaries = values[f]!.map((byScenario) => byScenario.map(summarize));
      const [energy, emissions, cost] = summaries as [Summary[], Summary[], Summary[]];
      // One object literal per line (not keys assigned one by one): the shape V8 builds once and reuses.
      const line = (scenario: ClusterStatisticRow['scenario'], s: number): ClusterStatisticRow => ({
        ...cluster,
        upgrade,
        fuel,
        scenario,
        energy_unit: fuel === 'total' ? 'kWh' : prices[fuel].unit,
        energy_mean: roundedMean(energy, s),
        energy_median: rounded(energy[s]!.median),
        energy_p20: rounded(energy[s]!.p20),
        energy_p80: rounded(energy[s]!.p80),
        emissions_mean: roundedMean(emissions, s),
        emissions_median: rounded(emissions[s]!.median),
        emissions_p20: rounded(emissions[s]!.p20),
        emissions_p80: rounded(emissions[s]!.p80),
        cost_mean: roundedMean(cost, s),
        cost_median: rounded(cost[s]!.median),
        cost_p20: rounded(cost[s]!.p20),
        cost_p80: rounded(cost[s]!.p80),
        num_samples: included.length,
        num_excluded_samples: excluded,
      });
      rows.push(line('baseline', 0));
      if (upgrade !== 'baseline') rows.push(line('upgrade', 1), line('delta', 2));
    });
  }
  return rows;
}

/** Scenario `s`'s mean, rounded; the upgrade's mean is baseline + delta in ten-thousandths. */
function roundedMean(summaries: readonly Summary[], s: number): number {
  return s === 1
    ? fromTenThousandths(toTenThousandths(summaries[0]!.mean) + toTenThousandths(summaries[2]!.mean))
    : rounded(summaries[s]!.mean);
}

const rounded = (value: number): number => fromTenThousandths(toTenThousandths(value));

const SERIES = RESULT_FUELS.length * METRICS.length * SCENARIO_COUNT;
let scratch = new Float64Array(0);

/**
 * HomeValues over one reused buffer: every series is a view of it, so a cluster allocates no arrays here
 * (it used to allocate 45 per upgrade, and the garbage collector was a sixth of a cluster's time). The
 * views are read before the next call overwrites them (clusterStatistics summarises each upgrade first).
 */
function scratchHomeValues(n: number): HomeValues {
  if (scratch.length < SERIES * n) scratch = new Float64Array(SERIES * n);
  let series = 0;
  return RESULT_FUELS.map(() =>
    METRICS.map(() =>
      Array.from({ length: SCENARIO_COUNT }, () => scratch.subarray(series * n, ++series * n)),
    ),
  );
}

function homeValues(
  included: readonly number[],
  baselineKwh: Float64Array,
  upgradeKwh: Float64Array,
  prices: FuelPrices,
): HomeValues {
  const n = included.length;
  const values = scratchHomeValues(n);
  const set = (fuel: number, metric: number, j: number, before: number, after: number): void => {
    const scenarios = values[fuel]![metric]!;
    scenarios[0]![j] = before;
    scenarios[1]![j] = after;
    scenarios[2]![j] = after - before;
  };
  for (let j = 0; j < n; j++) {
    const i = included[j]!;
    let kwhBefore = 0;
    let kwhAfter = 0;
    let kgBefore = 0;
    let kgAfter = 0;
    let costBefore = 0;
    let costAfter = 0;
    for (let f = 0; f < FUEL_COUNT; f++) {
      const price = prices[FUELS[f]!];
      const before = Math.max(0, baselineKwh[i * FUEL_COUNT + f]!);
      const after = Math.max(0, upgradeKwh[i * FUEL_COUNT + f]!);
      const fixed = before > 0 ? price.fixedAnnual : 0;
      const unitsBefore = before / price.kwhPerUnit;
      const unitsAfter = after / price.kwhPerUnit;
      const costBeforeOfFuel = price.volumetric * unitsBefore + fixed;
      const costAfterOfFuel = price.volumetric * unitsAfter + fixed;
      set(f, 0, j, unitsBefore, unitsAfter);
      set(f, 1, j, unitsBefore * price.kgCo2ePerUnit, unitsAfter * price.kgCo2ePerUnit);
      set(f, 2, j, costBeforeOfFuel, costAfterOfFuel);
      kwhBefore += before;
      kwhAfter += after;
      kgBefore += unitsBefore * price.kgCo2ePerUnit;
      kgAfter += unitsAfter * price.kgCo2ePerUnit;
      costBefore += costBeforeOfFuel;
      costAfter += costAfterOfFuel;
    }
    set(TOTAL, 0, j, kwhBefore, kwhAfter);
    set(TOTAL, 1, j, kgBefore, kgAfter);
    set(TOTAL, 2, j, costBefore, costAfter);
  }
  return values;
}
