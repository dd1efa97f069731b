import {
  HEALTH_UPGRADES,
  SQFT_BINS,
  sqftBinOf,
  type HealthBinDelta,
  type HealthUpgrade,
} from '../../schemas/health-data.ts';
import { FUELS } from '../../schemas/rem.ts';
import type { UpgradeEnergy } from '../savings/cluster-statistics.ts';
import type { FuelPrices } from '../savings/fuel-prices.ts';

/**
 * A cluster's contribution to the health rollup: per upgrade and floor-area bin, the mean change of each
 * fuel over the bin's sample homes, in the fuel's REM unit. Homes the upgrade does not apply to stay in the
 * bin with no change, since the rollup offers the upgrade to every household and counts those it cannot
 * change as unchanged. Energies are clipped at zero exactly as the REM statistics clip them.
 *
 * Every change counts as the surrogate predicts it, rises of a fossil fuel included. Some are physics (a heat
 * pump water heater draws heat from the house, which a gas furnace then replaces) and the rest is surrogate
 * noise (an untouched gas water heater predicted a few therms differently once a heat pump replaced
 * resistance heating), which comes in both directions and averages out over a county's homes. Counting the
 * rises as no change while keeping the falls, as this rollup once did, made electrifying look better than
 * the model says (docs/health-model.md gives by how much).
 */
export function healthBinDeltas(
  floorAreasFt2: readonly number[],
  baselineKwh: Float64Array,
  upgrades: readonly UpgradeEnergy[],
  prices: FuelPrices,
): HealthBinDelta[] {
  const homes = floorAreasFt2.length;
  if (baselineKwh.length !== homes * FUEL_COUNT)
    throw new Error(`baseline holds ${baselineKwh.length} values for ${homes} homes × ${FUEL_COUNT}`);
  // Typed arrays throughout the loop over homes, which runs for every upgrade of every cluster: their
  // shapes never change, so V8's optimised code for it is not thrown away as new clusters come in.
  const binOf = Uint8Array.from(floorAreasFt2, (area) => SQFT_BINS.indexOf(sqftBinOf(area)));
  const kwhPerUnit = Float64Array.from(FUELS, (fuel) => prices[fuel].kwhPerUnit);
  const sampleHomes = new Int32Array(SQFT_BINS.length);
  const upgradedHomes = new Int32Array(SQFT_BINS.length);
  const sums = new Float64Array(SQFT_BINS.length * FUEL_COUNT); // bin × fuel
  const out: HealthBinDelta[] = [];
  for (const { upgrade, applicable, kwh } of upgrades) {
    if (!isHealthUpgrade(upgrade)) continue;
    sampleHomes.fill(0);
    upgradedHomes.fill(0);
    sums.fill(0);
    for (let i = 0; i < homes; i++) {
      const bin = binOf[i]!;
      sampleHomes[bin]!++;
      if (!applicable[i]) continue;
      upgradedHomes[bin]!++;
      for (let f = 0; f < FUEL_COUNT; f++) {
        const before = Math.max(0, baselineKwh[i * FUEL_COUNT + f]!);
        const after = Math.max(0, kwh[i * FUEL_COUNT + f]!);
        sums[bin * FUEL_COUNT + f]! += (after - before) / kwhPerUnit[f]!;
      }
    }
    for (let b = 0; b < SQFT_BINS.length; b++) {
      const n = sampleHomes[b]!;
      if (n === 0) continue;
      out.push({
        upgrade,
        sqft_bin: SQFT_BINS[b]!,
        sample_homes: n,
        upgraded_homes: upgradedHomes[b]!,
        delta_electricity_kwh: sums[b * FUEL_COUNT + ELECTRICITY]! / n,
        delta_natural_gas_therm: sums[b * FUEL_COUNT + NATURAL_GAS]! / n,
        delta_fuel_oil_gallon: sums[b * FUEL_COUNT + FUEL_OIL]! / n,
        delta_propane_gallon: sums[b * FUEL_COUNT + PROPANE]! / n,
      });
    }
  }
  return out;
}

const FUEL_COUNT = FUELS.length;
const NATURAL_GAS = FUELS.indexOf('natural_gas');
const FUEL_OIL = FUELS.indexOf('fuel_oil');
const PROPANE = FUELS.indexOf('propane');
const ELECTRICITY = FUELS.indexOf('electricity');

const isHealthUpgrade = (upgrade: string): upgrade is HealthUpgrade =>
  (HEALTH_UPGRADES as readonly string[]).includes(upgrade);
