import { FUEL_UNITS, type EmissionFactor, type EnergyRate } from '../../schemas/rem-data.ts';
import { FUELS, type Fuel } from '../../schemas/rem.ts';
import { KWH_PER_GALLON_FUEL_OIL, KWH_PER_GALLON_PROPANE, KWH_PER_MMBTU, KWH_PER_THERM } from '../units.ts';

/**
 * What one unit of each fuel costs and emits in one state: the inputs of REM's cost and emissions
 * (notes §5.4), chosen from the lake's rate and emission-factor records.
 */

export type EnergyUnit = 'kWh' | 'therm' | 'gallon';

export interface FuelPrice {
  unit: EnergyUnit;
  kwhPerUnit: number;
  /** $ per unit. */
  volumetric: number;
  /** $ per year (12 × the monthly fixed charge), charged when the fuel is in the home's baseline. */
  fixedAnnual: number;
  /** kgCO2e per unit. */
  kgCo2ePerUnit: number;
}

export type FuelPrices = Readonly<Record<Fuel, FuelPrice>>;

const KWH_PER_UNIT: Readonly<Record<Fuel, number>> = {
  electricity: 1,
  natural_gas: KWH_PER_THERM,
  fuel_oil: KWH_PER_GALLON_FUEL_OIL,
  propane: KWH_PER_GALLON_PROPANE,
};

/** The energy unit REM reports each fuel in (notes §1.3) and its size in kWh (model/units.ts). */
export const FUEL_ENERGY_UNITS: Readonly<Record<Fuel, { unit: EnergyUnit; kwhPerUnit: number }>> = {
  electricity: { unit: FUEL_UNITS.electricity, kwhPerUnit: KWH_PER_UNIT.electricity },
  natural_gas: { unit: FUEL_UNITS.natural_gas, kwhPerUnit: KWH_PER_UNIT.natural_gas },
  fuel_oil: { unit: FUEL_UNITS.fuel_oil, kwhPerUnit: KWH_PER_UNIT.fuel_oil },
  propane: { unit: FUEL_UNITS.propane, kwhPerUnit: KWH_PER_UNIT.propane },
};

const RATE_UNITS: Readonly<Record<EnergyUnit, EnergyRate['volumetric_unit']>> = {
  kWh: '$/kWh',
  therm: '$/therm',
  gallon: '$/gallon',
};

const KG_PER_LB = 0.45359237;
const KWH_PER_DENOMINATOR: Readonly<Record<string, number>> = {
  kWh: 1,
  MWh: 1000,
  MMBtu: KWH_PER_MMBTU,
  therm: KWH_PER_THERM,
};

/**
 * kg (of CO2e or of a pollutant) per kWh of a factor whose unit is `<mass>/<energy>`, mass kg, kgCO2e, lb or
 * lbCO2e and energy kWh, MWh, MMBtu, therm or gallon (a gallon of the factor's own fuel).
 */
export function kgPerKwh(factor: Pick<EmissionFactor, 'fuel' | 'unit' | 'value'>): number {
  const [mass, energy] = factor.unit.split('/');
  const massKg = mass === 'kg' || mass === 'kgCO2e' ? 1 : mass === 'lb' || mass === 'lbCO2e' ? KG_PER_LB : 0;
  const kwh =
    energy === 'gallon' && (factor.fuel === 'fuel_oil' || factor.fuel === 'propane')
      ? KWH_PER_UNIT[factor.fuel]
      : KWH_PER_DENOMINATOR[energy ?? ''];
  if (massKg === 0 || kwh === undefined)
    throw new Error(`emission factor unit "${factor.unit}" of ${factor.fuel} is not a mass per energy`);
  return (factor.value * massKg) / kwh;
}

/**
 * Prices of every fuel in `state`: the state's rate of each fuel, and its CO2e factor for the state or,
 * failing that, the US. A fuel without either is an error naming it: a cluster is never priced at zero by
 * omission.
 */
export function fuelPricesFor(
  state: string,
  rates: readonly EnergyRate[],
  factors: readonly EmissionFactor[],
): FuelPrices {
  const priceOf = (fuel: Fuel): FuelPrice => {
    const { unit, kwhPerUnit } = FUEL_ENERGY_UNITS[fuel];
    const rate = rates.find((r) => r.state === state && r.fuel === fuel);
    if (!rate) throw new Error(`no ${fuel} rate for ${state}`);
    if (rate.volumetric_unit !== RATE_UNITS[unit])
      throw new Error(`${fuel} rate of ${state} is in ${rate.volumetric_unit}, expected ${RATE_UNITS[unit]}`);
    const co2e = (region: string) =>
      factors.find((f) => f.region === region && f.fuel === fuel && f.pollutant === 'co2e');
    const factor = co2e(state) ?? co2e('US');
    if (!factor) throw new Error(`no co2e emission factor for ${fuel} in ${state} or the US`);
    return {
      unit,
      kwhPerUnit,
      volumetric: rate.volumetric_rate,
      fixedAnnual: 12 * rate.fixed_monthly,
      kgCo2ePerUnit: kgPerKwh(factor) * kwhPerUnit,
    };
  };
  return Object.fromEntries(FUELS.map((fuel) => [fuel, priceOf(fuel)])) as Record<Fuel, FuelPrice>;
}
