import {
  EMISSION_SECTORS,
  HEALTH_POLLUTANTS,
  HEALTH_UPGRADES,
  SQFT_BINS,
  damageFactorFor,
  type DamageFactor,
  type EmissionSector,
  type HealthBinDelta,
  type HealthImpactCell,
  type HealthPollutant,
} from '../../schemas/health-data.ts';
import { emissionFactorFor, type CountyProfile, type EmissionFactor } from '../../schemas/rem-data.ts';
import { FUELS, type Fuel } from '../../schemas/rem.ts';
import { kgPerKwh, FUEL_ENERGY_UNITS } from '../savings/fuel-prices.ts';

/**
 * The health rollup of one county (issue: health impacts; notes §5.7): its in-scope households split by
 * heating fuel and floor-area bin, each cell's mean fuel change per household from the county's clusters,
 * the on-site and power-sector emissions that change avoids, and the premature deaths those tonnes cause
 * by the damage factors. Pure arithmetic over the simulate stage's cluster results and the factor tables.
 *
 * Exact sums: every kilogram figure is rounded to a multiple of 2⁻²⁰ kg and every death figure to 2⁻³⁰, so
 * each is an integer count of a tiny unit held exactly by a double; sums of cells (counties → state, bins →
 * total, states → nation) are then exact in any order while they stay below 2⁵³ units (8.6 Gt, 8.4 M deaths).
 */

const KG_GRID = 2 ** 20;
const DEATH_GRID = 2 ** 30;
// `+ 0` turns −0 (no change times a negative count) into 0, so a lake column never holds −0.
export const quantizeKg = (kg: number): number => Math.round(kg * KG_GRID) / KG_GRID + 0;
export const quantizeDeaths = (deaths: number): number => Math.round(deaths * DEATH_GRID) / DEATH_GRID + 0;

type FossilFuel = Exclude<Fuel, 'electricity'>;
const FOSSIL_FUELS: readonly FossilFuel[] = ['natural_gas', 'fuel_oil', 'propane'];

/** kg per unit of fuel (therm, gallon, kWh) and deaths per tonne, as the rollup of one state uses them. */
export interface HealthFactors {
  onsiteKgPerUnit: Record<FossilFuel, Record<HealthPollutant, number>>;
  powerKgPerKwh: Record<HealthPollutant, number>;
  deathsPerTonne: Record<EmissionSector, Record<HealthPollutant, number>>;
}

/** The factors of a state, and which ones neither the state nor the US has (those count as zero). */
export function healthFactorsFor(
  state: string,
  emissionFactors: readonly EmissionFactor[],
  damageFactors: readonly DamageFactor[],
): { factors: HealthFactors; missing: string[] } {
  const missing: string[] = [];
  const perUnit = (fuel: Fuel, pollutant: HealthPollutant): number => {
    const factor = emissionFactorFor(emissionFactors, state, fuel, pollutant);
    if (!factor) {
      missing.push(`${fuel} ${pollutant} emission factor`);
      return 0;
    }
    return kgPerKwh(factor) * FUEL_ENERGY_UNITS[fuel].kwhPerUnit;
  };
  const damage = (sector: EmissionSector, pollutant: HealthPollutant): number => {
    const factor = damageFactorFor(damageFactors, state, sector, pollutant);
    if (!factor) {
      missing.push(`${sector} ${pollutant} damage factor`);
      return 0;
    }
    return factor.deaths_per_tonne;
  };
  const byPollutant = (value: (pollutant: HealthPollutant) => number) =>
    Object.fromEntries(HEALTH_POLLUTANTS.map((p) => [p, value(p)])) as Record<HealthPollutant, number>;
  const factors: HealthFactors = {
    onsiteKgPerUnit: Object.fromEntries(
      FOSSIL_FUELS.map((fuel) => [fuel, byPollutant((p) => perUnit(fuel, p))]),
    ) as HealthFactors['onsiteKgPerUnit'],
    powerKgPerKwh: byPollutant((p) => perUnit('electricity', p)),
    deathsPerTonne: Object.fromEntries(
      EMISSION_SECTORS.map((sector) => [sector, byPollutant((p) => damage(sector, p))]),
    ) as HealthFactors['deathsPerTonne'],
  };
  return { factors, missing };
}

/**
 * Households of the REM universe (single-family detached, attached and mobile homes): the county's
 * occupied units less the ACS share of units in structures of 2 or more (a share of all housing units,
 * applied to occupied ones: the ACS county table has no tenure-by-structure split).
 */
export const householdsInScope = (county: Pick<CountyProfile, 'households' | 'multi_unit_share'>): number =>
  Math.round(county.households * (1 - county.multi_unit_share));

/**
 * Splits a whole number into whole parts proportional to `weights` (largest remainder, ties to the earlier
 * part), so the parts always sum to the total and a part of weight 0 gets nothing.
 */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (!Number.isInteger(total) || total < 0) throw new RangeError(`cannot apportion ${total}`);
  if (sum <= 0) return weights.map(() => 0);
  const quotas = weights.map((w) => (total * w) / sum);
  const parts = quotas.map(Math.floor);
  let left = total - parts.reduce((a, b) => a + b, 0);
  const order = quotas
    .map((q, i) => ({ i, remainder: q - Math.floor(q) }))
    .filter(({ i }) => weights[i]! > 0)
    .sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of order) {
    if (left === 0) break;
    parts[i]!++;
    left--;
  }
  return parts;
}

/** A supported cluster of the county whose water-heater fuel is drawn: its per-bin fuel changes. */
export interface HeatingFuelCluster {
  heating_fuel: Fuel;
  bins: readonly HealthBinDelta[];
}

export interface RollupVersions {
  code_version: string;
  model_version: string;
  factors_version: string;
  damage_factors_version: string;
}

export type RollupCounty = Pick<
  CountyProfile,
  'county_fips' | 'state' | 'name' | 'households' | 'multi_unit_share'
>;

/**
 * The county's cells, by upgrade, heating fuel and bin. Households: the in-scope total apportioned over
 * (heating fuel × bin) by the state's heating-fuel shares among the fuels the county supports, times the
 * share of the fuel's sample homes in each bin. Cells with no households are left out.
 */
export function countyHealthCells(
  county: RollupCounty,
  clusters: readonly HeatingFuelCluster[],
  heatingFuelShares: Readonly<Record<Fuel, number>>,
  factors: HealthFactors,
  versions: RollupVersions,
): HealthImpactCell[] {
  const slots = clusters
    .slice()
    .sort((a, b) => FUELS.indexOf(a.heating_fuel) - FUELS.indexOf(b.heating_fuel))
    .flatMap((cluster) => {
      const homesByBin = binHomes(cluster);
      const homes = homesByBin.reduce((a, b) => a + b, 0);
      return SQFT_BINS.map((sqft_bin, b) => ({
        cluster,
        sqft_bin,
        weight: homes === 0 ? 0 : (heatingFuelShares[cluster.heating_fuel] * homesByBin[b]!) / homes,
      }));
    });
  const households = apportion(
    householdsInScope(county),
    slots.map((s) => s.weight),
  );
  const cells: HealthImpactCell[] = [];
  for (const upgrade of HEALTH_UPGRADES) {
    slots.forEach(({ cluster, sqft_bin }, s) => {
      const count = households[s]!;
      if (count === 0) return;
      const bin = cluster.bins.find((d) => d.upgrade === upgrade && d.sqft_bin === sqft_bin);
      if (!bin)
        throw new Error(
          `${county.county_fips} ${cluster.heating_fuel}: no ${upgrade} change for bin ${sqft_bin}`,
        );
      cells.push(cell(county, cluster.heating_fuel, bin, count, factors, versions));
    });
  }
  return cells;
}

/** Sample homes per bin (the same for every upgrade: each upgrade is offered to every home). */
function binHomes(cluster: HeatingFuelCluster): number[] {
  const first = cluster.bins[0]?.upgrade;
  return SQFT_BINS.map(
    (sqft_bin) => cluster.bins.find((d) => d.upgrade === first && d.sqft_bin === sqft_bin)?.sample_homes ?? 0,
  );
}

function cell(
  county: RollupCounty,
  heating_fuel: Fuel,
  bin: HealthBinDelta,
  households: number,
  factors: HealthFactors,
  versions: RollupVersions,
): HealthImpactCell {
  const fossilDelta: Record<FossilFuel, number> = {
    natural_gas: bin.delta_natural_gas_therm,
    fuel_oil: bin.delta_fuel_oil_gallon,
    propane: bin.delta_propane_gallon,
  };
  const kg: Record<string, number> = {};
  let deathsOnsite = 0;
  let deathsPower = 0;
  for (const p of HEALTH_POLLUTANTS) {
    // Avoided = −(upgrade − baseline) × households × factor.
    const onsitePerHousehold = FOSSIL_FUELS.reduce(
      (sum, fuel) => sum + fossilDelta[fuel] * factors.onsiteKgPerUnit[fuel][p],
      0,
    );
    const onsite = quantizeKg(-households * onsitePerHousehold);
    const power = quantizeKg(-households * bin.delta_electricity_kwh * factors.powerKgPerKwh[p]);
    kg[`onsite_${p}_kg_avoided`] = onsite;
    kg[`power_${p}_kg_avoided`] = power;
    kg[`${p}_kg_avoided`] = onsite + power;
    deathsOnsite += (onsite / 1000) * factors.deathsPerTonne.residential_combustion[p];
    deathsPower += (power / 1000) * factors.deathsPerTonne.electricity_generation[p];
  }
  const deaths_avoided_onsite = quantizeDeaths(deathsOnsite);
  const deaths_avoided_power = quantizeDeaths(deathsPower);
  return {
    county_fips: county.county_fips,
    state: county.state,
    county_name: county.name,
    upgrade: bin.upgrade,
    heating_fuel,
    sqft_bin: bin.sqft_bin,
    households,
    sample_homes: bin.sample_homes,
    upgraded_homes: bin.upgraded_homes,
    delta_electricity_kwh: bin.delta_electricity_kwh,
    delta_natural_gas_therm: bin.delta_natural_gas_therm,
    delta_fuel_oil_gallon: bin.delta_fuel_oil_gallon,
    delta_propane_gallon: bin.delta_propane_gallon,
    ...(kg as Pick<HealthImpactCell, `${string}_kg_avoided` & keyof HealthImpactCell>),
    deaths_avoided_onsite,
    deaths_avoided_power,
    deaths_avoided: deaths_avoided_onsite + deaths_avoided_power,
    ...versions,
  } as HealthImpactCell;
}
