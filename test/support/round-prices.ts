import { FUEL_ENERGY_UNITS, type FuelPrices } from '../../model/savings/fuel-prices.ts';
import { KWH_PER_THERM } from '../../model/units.ts';

/** Round prices and CO2e factors, so every expected figure of a savings spec can be worked by hand. */
export const ROUND_PRICES: FuelPrices = {
  electricity: { ...FUEL_ENERGY_UNITS.electricity, volumetric: 0.2, fixedAnnual: 120, kgCo2ePerUnit: 0.4 },
  natural_gas: { ...FUEL_ENERGY_UNITS.natural_gas, volumetric: 1.5, fixedAnnual: 240, kgCo2ePerUnit: 5 },
  fuel_oil: { ...FUEL_ENERGY_UNITS.fuel_oil, volumetric: 4, fixedAnnual: 0, kgCo2ePerUnit: 10 },
  propane: { ...FUEL_ENERGY_UNITS.propane, volumetric: 3, fixedAnnual: 0, kgCo2ePerUnit: 6 },
};

/** Homes' annual kWh rows in FUELS order (electricity, natural gas, fuel oil, propane); gas given in therms. */
export const homesKwh = (...rows: [kwh: number, therms: number][]): Float64Array =>
  Float64Array.from(rows.flatMap(([kwh, therms]) => [kwh, therms * KWH_PER_THERM, 0, 0]));
