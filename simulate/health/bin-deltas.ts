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
 * No upgrade adds fossil combustion (each removes a fossil appliance or cuts a load), so a rise of a fossil
 * fuel is surrogate noise, e.g. an untouched gas water heater predicted a few therms differently after a heat
 * pump replaced resistance heating. Such rises count as no change here, so the rollup never reports more
 * on-site emissions from electrifying; REM's statistics keep the surrogate's values as predicted.
 */
export function healthBinDeltas(
  floorAreasFt2: readonly number[],
  baselineKwh: Float64Array,
  upgrades: readonly UpgradeEnergy[],
  prices: FuelPrices,
): HealthBinDelta[] {
  const homes = floorAreasFt2.length;
  if (baselineKwh.length !== homes * FUELS.length)
    throw new Error(`baseline holds ${baselineKwh.length} values for ${homes} homes × ${FUELS.length}`);
  const binOf = floorAreasFt2.map((area) => SQFT_BINS.indexOf(sqftBinOf(area)));
  const out: HealthBinDelta[] = [];
  for (const { upgrade, applicable, kwh } of upgrades) {
    if (!isHealthUpgrade(upgrade)) continue;
    const sampleHomes = new Array<number>(SQFT_BINS.length).fill(0);
    const upgradedHomes = new Array<number>(SQFT_BINS.length).fill(0);
    const sums = SQFT_BINS.map(() => new Float64Array(FUELS.length));
    for (let i = 0; i < homes; i++) {
      const bin = binOf[i]!;
      sampleHomes[bin]!++;
      if (!applicable[i]) continue;
      upgradedHomes[bin]!++;
      for (let f = 0; f < FUELS.length; f++) {
        const before = Math.max(0, baselineKwh[i * FUELS.length + f]!);
        const after = Math.max(0, kwh[i * FUELS.length + f]!);
        const change = f === ELECTRICITY ? after - before : Math.min(0, after - before);
        sums[bin]![f]! += change / prices[FUELS[f]!].kwhPerUnit;
      }
    }
    SQFT_BINS.forEach((sqft_bin, b) => {
      const n = sampleHomes[b]!;
      if (n === 0) return;
      const mean = (f: number) => sums[b]![f]! / n;
      out.push({
        upgrade,
        sqft_bin,
        sample_homes: n,
        upgraded_homes: upgradedHomes[b]!,
        delta_electricity_kwh: mean(FUELS.indexOf('electricity')),
        delta_natural_gas_therm: mean(FUELS.indexOf('natural_gas')),
        delta_fuel_oil_gallon: mean(FUELS.indexOf('fuel_oil')),
        delta_propane_gallon: mean(FUELS.indexOf('propane')),
      });
    });
  }
  return out;
}

const ELECTRICITY = FUELS.indexOf('electricity');

const isHealthUpgrade = (upgrade: string): upgrade is HealthUpgrade =>
  (HEALTH_UPGRADES as readonly string[]).includes(upgrade);
