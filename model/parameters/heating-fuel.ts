import type { CountyHeatingFuel, HeatingFuelShares } from '../../schemas/rem-data.ts';
import type { Fuel } from '../../schemas/rem.ts';
import { FUEL_ORDER, HEATING_FUEL_BY_STATE } from './housing-stock.ts';

/**
 * Main heating fuel shares of a county's homes, by housing type, from the finest public figures read here:
 * the county's ACS B25040 shares (all occupied units) split by housing type with the national mix of RECS
 * 2020. Sources and the steps are in ingest/default-data/rem/SOURCES.md.
 */

/**
 * RECS 2020 Table HC6.1 (U.S. EIA, March 2023): million housing units by main heating fuel. Single-family is
 * detached + attached + mobile homes (the REM universe); multi-family is apartments in buildings of 2–4 and 5+
 * units. Propane in 2–4-unit buildings is withheld ("Q": too few cases) and counts as 0.
 */
export const RECS_2020_HEATING_FUEL_UNITS: Readonly<
  Record<'single_family' | 'multi_family', HeatingFuelShares>
> = {
  single_family: {
    electricity: 20.27 + 2.18 + 3.87,
    natural_gas: 44.64 + 4.57 + 1.6,
    fuel_oil: 3.7 + 0.16 + 0.23,
    propane: 4.26 + 0.07 + 0.69,
  },
  multi_family: {
    electricity: 3.9 + 12.36,
    natural_gas: 4.47 + 7.43,
    fuel_oil: 0.34 + 0.51,
    propane: 0.16,
  },
};

const normalised = (shares: Readonly<Record<Fuel, number>>): HeatingFuelShares => {
  const total = FUEL_ORDER.reduce((sum, fuel) => sum + shares[fuel], 0);
  if (!(total > 0)) throw new RangeError('no home uses any of the four fuels');
  return Object.fromEntries(FUEL_ORDER.map((fuel) => [fuel, shares[fuel] / total])) as HeatingFuelShares;
};

/**
 * How much more (or less) often a housing type uses each fuel than all homes do, nationally: its share of
 * the fuel over the four fuels ÷ all homes' share. Applied to a county's shares of all homes, it gives the
 * type's shares there (gas is rarer and electricity commoner in apartments, everywhere alike).
 */
export function housingTypeTilt(type: 'single_family' | 'multi_family'): Record<Fuel, number> {
  const own = normalised(RECS_2020_HEATING_FUEL_UNITS[type]);
  const all = normalised(
    Object.fromEntries(
      FUEL_ORDER.map((fuel) => [
        fuel,
        RECS_2020_HEATING_FUEL_UNITS.single_family[fuel] + RECS_2020_HEATING_FUEL_UNITS.multi_family[fuel],
      ]),
    ) as Record<Fuel, number>,
  );
  return Object.fromEntries(FUEL_ORDER.map((fuel) => [fuel, own[fuel] / all[fuel]])) as Record<Fuel, number>;
}

/**
 * The share of a state's "other" homes (ACS categories without a column of their own: propane, wood, coal,
 * solar, other fuels, none) that burn propane. The state's propane share among the four fuels (the
 * sampler's ACS state table) gives its propane homes relative to those using gas, electricity or oil:
 * P = p·(E + G + O) / (1 − p), and P / X is the fraction, at most 1.
 */
export function propaneShareOfOther(
  state: string,
  stateTotals: Pick<CountyHeatingFuel, 'natural_gas' | 'electricity' | 'fuel_oil' | 'other'>,
): number {
  const table = HEATING_FUEL_BY_STATE[state];
  if (!table || stateTotals.other <= 0) return 0;
  const p = table[FUEL_ORDER.indexOf('propane')]! / table.reduce((a, b) => a + b, 0);
  const propane = (p * (stateTotals.natural_gas + stateTotals.electricity + stateTotals.fuel_oil)) / (1 - p);
  return Math.min(1, propane / stateTotals.other);
}

/** A county's shares over the four fuels, all homes: gas, electricity and oil as counted, propane from "other". */
export function countyFuelShares(
  county: Pick<CountyHeatingFuel, 'natural_gas' | 'electricity' | 'fuel_oil' | 'other'>,
  propaneFraction: number,
): HeatingFuelShares {
  return normalised({
    electricity: county.electricity,
    natural_gas: county.natural_gas,
    fuel_oil: county.fuel_oil,
    propane: county.other * propaneFraction,
  });
}

/** The state's shares over the four fuels (the sampler's table), for a county no source covers. */
export function stateFuelShares(state: string): HeatingFuelShares | undefined {
  const table = HEATING_FUEL_BY_STATE[state];
  if (!table) return undefined;
  return normalised(
    Object.fromEntries(FUEL_ORDER.map((fuel, i) => [fuel, table[i]!])) as Record<Fuel, number>,
  );
}

/** The shares of one housing type: the shares of all homes tilted by the type's national mix. */
export function sharesOfHousingType(
  all: HeatingFuelShares,
  type: 'single_family' | 'multi_family',
): HeatingFuelShares {
  const tilt = housingTypeTilt(type);
  return normalised(
    Object.fromEntries(FUEL_ORDER.map((fuel) => [fuel, all[fuel] * tilt[fuel]])) as Record<Fuel, number>,
  );
}
