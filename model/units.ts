/**
 * Site-energy unit conversions. Every simulator result is in kWh of site energy; these turn fuel quantities
 * into kWh and back. Heating values are the ones ResStock / OpenStudio-HPXML use, so REM-style outputs
 * (therm, gallon) round-trip:
 * - 1 kWh = 3,412.14 Btu (NIST SP 811 / ASHRAE Handbook—Fundamentals, Ch. 39 conversion tables).
 * - 1 therm = 100,000 Btu = 29.3071 kWh (definition of the US therm).
 * - No. 2 heating oil: 138,500 Btu/gal = 40.59 kWh/gal (EIA "Units and calculators", heat content of
 *   distillate fuel oil; OpenStudio-HPXML default).
 * - Propane: 91,452 Btu/gal ≈ 26.80 kWh/gal (EIA "Units and calculators", heat content of propane).
 */

export const BTU_PER_KWH = 3412.14;
export const KWH_PER_THERM = 100_000 / BTU_PER_KWH;
export const KWH_PER_GALLON_FUEL_OIL = 138_500 / BTU_PER_KWH;
export const KWH_PER_GALLON_PROPANE = 91_452 / BTU_PER_KWH;
export const KWH_PER_MMBTU = 1_000_000 / BTU_PER_KWH;

export const btuToKwh = (btu: number): number => btu / BTU_PER_KWH;
export const kwhToBtu = (kwh: number): number => kwh * BTU_PER_KWH;
export const thermsToKwh = (therms: number): number => therms * KWH_PER_THERM;
export const kwhToTherms = (kwh: number): number => kwh / KWH_PER_THERM;
export const fuelOilGallonsToKwh = (gallons: number): number => gallons * KWH_PER_GALLON_FUEL_OIL;
export const kwhToFuelOilGallons = (kwh: number): number => kwh / KWH_PER_GALLON_FUEL_OIL;
export const propaneGallonsToKwh = (gallons: number): number => gallons * KWH_PER_GALLON_PROPANE;
export const kwhToPropaneGallons = (kwh: number): number => kwh / KWH_PER_GALLON_PROPANE;
export const kwhToMmbtu = (kwh: number): number => kwh / KWH_PER_MMBTU;
