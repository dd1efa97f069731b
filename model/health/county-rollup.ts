import {
  HEALTH_POLLUTANTS,
  HEALTH_UPGRADES,
  SQFT_BINS,
  VALUE_OF_STATISTICAL_LIFE,
  type EmissionSector,
  type HealthBinDelta,
  type HealthImpactCell,
  type HealthPollutant,
  type HealthUpgrade,
  type HousingType,
  type MortalityEstimate,
} from '../../schemas/health-data.ts';
import {
  emissionFactorFor,
  GRID_EMISSIONS,
  type CountyProfile,
  type EmissionFactor,
  type GridEmissions,
  type HeatingFuelShares,
} from '../../schemas/rem-data.ts';
import { FUELS, type Fuel } from '../../schemas/rem.ts';
import { kgPerKwh, FUEL_ENERGY_UNITS } from '../savings/fuel-prices.ts';
import { multiFamilyRatio } from './multi-family.ts';

/**
 * The health rollup of one county (issue: health impacts; notes §5.7): its households split by housing type,
 * heating fuel and floor-area bin, each cell's mean fuel change per household from the county's clusters
 * (multi-family households: approximated from them, see multi-family.ts), the on-site and power-sector
 * emissions that change avoids, the premature deaths those tonnes cause by the place's damage factors (central
 * and low mortality estimate) and their value. Pure arithmetic over the simulate stage's cluster results and
 * the factor tables.
 *
 * Exact sums: every kilogram figure is rounded to a multiple of 2⁻²⁰ kg, every death figure to 2⁻³⁰ and every
 * dollar figure to 2⁻⁸, so each is an integer count of a tiny unit held exactly by a double; sums of cells
 * (counties → state, bins → total, states → nation) are then exact in any order while they stay below 2⁵³ units
 * (8.6 Gt, 8.4 M deaths, $35 trillion).
 */

const KG_GRID = 2 ** 20;
const DEATH_GRID = 2 ** 30;
const USD_GRID = 2 ** 8;
// `+ 0` turns −0 (no change times a negative count) into 0, so a lake column never holds −0.
export const quantizeKg = (kg: number): number => Math.round(kg * KG_GRID) / KG_GRID + 0;
export const quantizeDeaths = (deaths: number): number => Math.round(deaths * DEATH_GRID) / DEATH_GRID + 0;
export const quantizeUsd = (usd: number): number => Math.round(usd * USD_GRID) / USD_GRID + 0;

type FossilFuel = Exclude<Fuel, 'electricity'>;
const FOSSIL_FUELS: readonly FossilFuel[] = ['natural_gas', 'fuel_oil', 'propane'];

/** Deaths per tonne by the central and the low mortality estimate. */
export type DeathsPerTonne = Readonly<Record<MortalityEstimate, number>>;

/** A pollutant's kg per unit: of fossil fuel burnt at home (therm, gallon), or of electricity used (kWh). */
export interface EmissionRates {
  onsiteKgPerUnit: Record<FossilFuel, Record<HealthPollutant, number>>;
  powerKgPerKwh: Record<HealthPollutant, number>;
}

/**
 * kg per unit of fuel in a county (power plants' on each grid basis), and deaths per tonne where the
 * county's tonnes fall.
 */
export interface HealthFactors {
  onsiteKgPerUnit: EmissionRates['onsiteKgPerUnit'];
  powerKgPerKwh: Record<GridEmissions, EmissionRates['powerKgPerKwh']>;
  /** Home combustion: the county's factors; power plants: the state's. */
  deathsPerTonne: Record<EmissionSector, Record<HealthPollutant, DeathsPerTonne>>;
}

/** A state's emission factors (kg per unit), and those neither the state nor the US has (counted as zero). */
export function emissionFactorsFor(
  state: string,
  emissionFactors: readonly EmissionFactor[],
): { factors: EmissionRates; missing: string[] } {
  const missing: string[] = [];
  const perUnit = (fuel: Fuel, pollutant: HealthPollutant): number => {
    const factor = emissionFactorFor(emissionFactors, state, fuel, pollutant);
    if (!factor) {
      missing.push(`${fuel} ${pollutant} emission factor`);
      return 0;
    }
    return kgPerKwh(factor) * FUEL_ENERGY_UNITS[fuel].kwhPerUnit;
  };
  const byPollutant = (value: (pollutant: HealthPollutant) => number) =>
    Object.fromEntries(HEALTH_POLLUTANTS.map((p) => [p, value(p)])) as Record<HealthPollutant, number>;
  return {
    factors: {
      onsiteKgPerUnit: Object.fromEntries(
        FOSSIL_FUELS.map((fuel) => [fuel, byPollutant((p) => perUnit(fuel, p))]),
      ) as HealthFactors['onsiteKgPerUnit'],
      powerKgPerKwh: byPollutant((p) => perUnit('electricity', p)),
    },
    missing,
  };
}

/**
 * Households of the REM universe (single-family detached, attached and mobile homes): the county's
 * occupied units less the ACS share of units in structures of 2 or more (a share of all housing units,
 * applied to occupied ones: the ACS county table has no tenure-by-structure split). The rest are the
 * county's multi-family households.
 */
export const singleFamilyHouseholds = (
  county: Pick<CountyProfile, 'households' | 'multi_unit_share'>,
): number => Math.round(county.households * (1 - county.multi_unit_share));

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

/** The county's heating-fuel shares of each housing type (its `rem_counties` row). */
export type HousingTypeShares = Readonly<Record<HousingType, HeatingFuelShares>>;

/** The bin every multi-family household is counted in: apartments average 800–900 ft² heated (RECS 2020 HC10.9). */
export const MULTI_FAMILY_BIN = SQFT_BINS[0];

/** One group of a county's households that shares a fuel change: a cluster's bin, or a cluster for apartments. */
interface Slot {
  housing: HousingType;
  cluster: HeatingFuelCluster;
  sqft_bin: (typeof SQFT_BINS)[number];
  weight: number;
}

/**
 * The county's cells, by upgrade, housing type, heating fuel, bin and grid basis (the power plants' tonnes
 * counted on each; everything else is the same in both). Single-family households: the county's
 * single-family total apportioned over (heating fuel × bin) by its single-family heating-fuel shares among
 * the fuels it supports, times the share of the fuel's sample homes in each bin. Multi-family households:
 * the rest, apportioned over heating fuels by the multi-family shares, in MULTI_FAMILY_BIN. Cells with no
 * households are left out.
 */
export function countyHealthCells(
  county: RollupCounty,
  clusters: readonly HeatingFuelCluster[],
  shares: HousingTypeShares,
  factors: HealthFactors,
  versions: RollupVersions,
): HealthImpactCell[] {
  const sorted = clusters
    .slice()
    .sort((a, b) => FUELS.indexOf(a.heating_fuel) - FUELS.indexOf(b.heating_fuel));
  const singleFamily: Slot[] = sorted.flatMap((cluster) => {
    const homesByBin = binHomes(cluster);
    const homes = homesByBin.reduce((a, b) => a + b, 0);
    return SQFT_BINS.map((sqft_bin, b) => ({
      housing: 'single_family' as const,
      cluster,
      sqft_bin,
      weight: homes === 0 ? 0 : (shares.single_family[cluster.heating_fuel] * homesByBin[b]!) / homes,
    }));
  });
  const multiFamily: Slot[] = sorted.map((cluster) => ({
    housing: 'multi_family',
    cluster,
    sqft_bin: MULTI_FAMILY_BIN,
    weight: binHomes(cluster).some((n) => n > 0) ? shares.multi_family[cluster.heating_fuel] : 0,
  }));
  const single = singleFamilyHouseholds(county);
  const households = [
    ...apportion(
      single,
      singleFamily.map((s) => s.weight),
    ),
    ...apportion(
      county.households - single,
      multiFamily.map((s) => s.weight),
    ),
  ];
  const slots = [...singleFamily, ...multiFamily];
  const cells: HealthImpactCell[] = [];
  for (const upgrade of HEALTH_UPGRADES) {
    slots.forEach((slot, s) => {
      const count = households[s]!;
      if (count === 0) return;
      const change =
        slot.housing === 'single_family'
          ? slot.cluster.bins.find((d) => d.upgrade === upgrade && d.sqft_bin === slot.sqft_bin)
          : multiFamilyChange(slot.cluster, upgrade);
      if (!change)
        throw new Error(
          `${county.county_fips} ${slot.cluster.heating_fuel}: no ${upgrade} change for bin ${slot.sqft_bin}`,
        );
      for (const grid of GRID_EMISSIONS)
        cells.push(cell(county, slot, change, count, factors, grid, versions));
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

/**
 * A multi-family household's change: the cluster's mean change over all its sample homes (every bin),
 * times the apartment-to-single-family energy ratio of what the upgrade changes.
 */
function multiFamilyChange(cluster: HeatingFuelCluster, upgrade: HealthUpgrade): HealthBinDelta | undefined {
  const bins = cluster.bins.filter((d) => d.upgrade === upgrade);
  if (bins.length === 0) return undefined;
  const homes = bins.reduce((sum, d) => sum + d.sample_homes, 0);
  const ratio = multiFamilyRatio(upgrade);
  const mean = (delta: (d: HealthBinDelta) => number) =>
    (bins.reduce((sum, d) => sum + delta(d) * d.sample_homes, 0) / homes) * ratio;
  return {
    upgrade,
    sqft_bin: MULTI_FAMILY_BIN,
    sample_homes: homes,
    upgraded_homes: bins.reduce((sum, d) => sum + d.upgraded_homes, 0),
    delta_electricity_kwh: mean((d) => d.delta_electricity_kwh),
    delta_natural_gas_therm: mean((d) => d.delta_natural_gas_therm),
    delta_fuel_oil_gallon: mean((d) => d.delta_fuel_oil_gallon),
    delta_propane_gallon: mean((d) => d.delta_propane_gallon),
  };
}

function cell(
  county: RollupCounty,
  slot: Slot,
  change: HealthBinDelta,
  households: number,
  factors: HealthFactors,
  grid: GridEmissions,
  versions: RollupVersions,
): HealthImpactCell {
  const powerKgPerKwh = factors.powerKgPerKwh[grid];
  const fossilDelta: Record<FossilFuel, number> = {
    natural_gas: change.delta_natural_gas_therm,
    fuel_oil: change.delta_fuel_oil_gallon,
    propane: change.delta_propane_gallon,
  };
  const kg: Record<string, number> = {};
  const deaths = { onsite: { central: 0, low: 0 }, power: { central: 0, low: 0 } };
  for (const p of HEALTH_POLLUTANTS) {
    // Avoided = −(upgrade − baseline) × households × factor.
    const onsitePerHousehold = FOSSIL_FUELS.reduce(
      (sum, fuel) => sum + fossilDelta[fuel] * factors.onsiteKgPerUnit[fuel][p],
      0,
    );
    const onsite = quantizeKg(-households * onsitePerHousehold);
    const power = quantizeKg(-households * change.delta_electricity_kwh * powerKgPerKwh[p]);
    kg[`onsite_${p}_kg_avoided`] = onsite;
    kg[`power_${p}_kg_avoided`] = power;
    kg[`${p}_kg_avoided`] = onsite + power;
    for (const estimate of ['central', 'low'] as const) {
      deaths.onsite[estimate] += (onsite / 1000) * factors.deathsPerTonne.residential_combustion[p][estimate];
      deaths.power[estimate] += (power / 1000) * factors.deathsPerTonne.electricity_generation[p][estimate];
    }
  }
  const onsite = { central: quantizeDeaths(deaths.onsite.central), low: quantizeDeaths(deaths.onsite.low) };
  const power = { central: quantizeDeaths(deaths.power.central), low: quantizeDeaths(deaths.power.low) };
  const total = { central: onsite.central + power.central, low: onsite.low + power.low };
  return {
    county_fips: county.county_fips,
    state: county.state,
    county_name: county.name,
    upgrade: change.upgrade,
    heating_fuel: slot.cluster.heating_fuel,
    sqft_bin: slot.sqft_bin,
    housing_type: slot.housing,
    grid_emissions: grid,
    households,
    sample_homes: change.sample_homes,
    upgraded_homes: change.upgraded_homes,
    delta_electricity_kwh: change.delta_electricity_kwh,
    delta_natural_gas_therm: change.delta_natural_gas_therm,
    delta_fuel_oil_gallon: change.delta_fuel_oil_gallon,
    delta_propane_gallon: change.delta_propane_gallon,
    ...(kg as Pick<HealthImpactCell, `${string}_kg_avoided` & keyof HealthImpactCell>),
    deaths_avoided_onsite: onsite.central,
    deaths_avoided_power: power.central,
    deaths_avoided: total.central,
    deaths_avoided_onsite_low: onsite.low,
    deaths_avoided_power_low: power.low,
    deaths_avoided_low: total.low,
    mortality_value_usd: quantizeUsd(total.central * VALUE_OF_STATISTICAL_LIFE.usd),
    mortality_value_usd_low: quantizeUsd(total.low * VALUE_OF_STATISTICAL_LIFE.usd),
    ...versions,
  } as HealthImpactCell;
}
