import { END_USES, FUELS, type Climate, type EndUse, type Fuel, type Home } from '../schemas/rem.ts';
import { clothesDrying, cooking, otherElectricKwh } from './physics/appliances.ts';
import { envelopeOf } from './physics/envelope.ts';
import { spaceConditioning } from './physics/space-conditioning.ts';
import { waterHeating } from './physics/water-heating.ts';

/**
 * The REM building-energy simulator: a home and its climate in, annual site energy per fuel and end use out
 * (kWh). Deterministic: the same inputs always give the same numbers. See model/README.md.
 */

/** Bump when a change to the physics changes any result. */
export const SIMULATOR_VERSION = 'rem-physics-1.2.0';

/** Values per home in the end-use × fuel matrix: END_USES.length × FUELS.length, end use major. */
export const END_USE_FUEL_CELLS = END_USES.length * FUELS.length;

const fuelIndex: Record<Fuel, number> = { electricity: 0, natural_gas: 1, fuel_oil: 2, propane: 3 };
const endUseIndex = Object.fromEntries(END_USES.map((e, i) => [e, i])) as Record<EndUse, number>;
const cell = (endUse: EndUse, fuel: Fuel): number => endUseIndex[endUse] * FUELS.length + fuelIndex[fuel];

/**
 * Writes the home's annual kWh into out[offset + endUse × 4 + fuel] (END_USES × FUELS order), overwriting
 * the 24 cells. The allocation-free core of simulateHome and simulateBatch.
 */
export function simulateInto(home: Home, climate: Climate, out: Float64Array, offset: number): void {
  out.fill(0, offset, offset + END_USE_FUEL_CELLS);
  const add = (endUse: EndUse, fuel: Fuel, kwh: number): void => {
    out[offset + cell(endUse, fuel)]! += kwh;
  };

  const envelope = envelopeOf(home);
  const water = waterHeating(home, climate);
  const space = spaceConditioning(home, climate, envelope, -water.spaceHeatDrawBtuH);
  add('heating', home.heatingFuel, space.heatingFuelKwh);
  add('heating', 'electricity', space.heatingAuxKwh);
  add('cooling', 'electricity', space.coolingKwh);
  add('water_heating', home.waterHeaterFuel, water.fuelKwh);

  const dryer = clothesDrying(home);
  if (home.dryerFuel !== 'none') add('clothes_drying', home.dryerFuel, dryer.fuelKwh);
  add('clothes_drying', 'electricity', dryer.electricKwh);
  const range = cooking(home);
  if (home.rangeFuel !== 'none') add('cooking', home.rangeFuel, range.fuelKwh);
  add('cooking', 'electricity', range.electricKwh);
  add('other', 'electricity', otherElectricKwh(home));
}

export interface AnnualEnergy {
  /** kWh of site energy per fuel, all end uses. */
  byFuel: Record<Fuel, number>;
  /** kWh per end use and fuel. */
  byEndUse: Record<EndUse, Record<Fuel, number>>;
  totalKwh: number;
}

export function simulateHome(home: Home, climate: Climate): AnnualEnergy {
  const cells = new Float64Array(END_USE_FUEL_CELLS);
  simulateInto(home, climate, cells, 0);
  const perFuel = (pick: (fuel: Fuel) => number): Record<Fuel, number> =>
    Object.fromEntries(FUELS.map((f) => [f, pick(f)])) as Record<Fuel, number>;
  const byEndUse = Object.fromEntries(END_USES.map((e) => [e, perFuel((f) => cells[cell(e, f)]!)])) as Record<
    EndUse,
    Record<Fuel, number>
  >;
  const byFuel = perFuel((f) => END_USES.reduce((sum, e) => sum + byEndUse[e][f], 0));
  return { byFuel, byEndUse, totalKwh: FUELS.reduce((sum, f) => sum + byFuel[f], 0) };
}
