import type { Home } from '../../schemas/rem.ts';
import { KWH_PER_THERM } from '../units.ts';
import { hotWaterGallonsPerDay } from './water-heating.ts';

/**
 * Clothes drying, cooking and everything else (lighting, refrigeration, plug loads). Figures are per year.
 */

/** Dryer loads per year: ANSI/RESNET/ICC 301's 164 + 46.5 × N_br cycles (approx.), N_br from occupants. */
function dryerLoadsPerYear(home: Home): number {
  const bedroomEquivalent = (hotWaterGallonsPerDay(home.occupants) - 30) / 10;
  return 164 + 46.5 * bedroomEquivalent;
}

/** DOE 10 CFR 430 Appendix D2 test load for a standard dryer, lb. */
const DRYER_TEST_LOAD_LB = 8.45;
/**
 * Combined energy factors, lb/kWh: DOE 2015 minimums for vented standard dryers (electric 3.73, gas 3.30;
 * 10 CFR 430.32(h)) and 5.2 for the heat pump dryer of the whole-home upgrade (REM notes §1.2).
 */
const CEF_ELECTRIC = 3.73;
const CEF_GAS = 3.3;
const CEF_HEAT_PUMP = 5.2;
/** Electric share (drum motor, controls) of a gas dryer's energy (approx.). */
const GAS_DRYER_ELECTRIC_SHARE = 0.09;

export interface ApplianceEnergy {
  /** kWh in the appliance's fuel. */
  fuelKwh: number;
  /** Electricity of a fossil appliance (motors, ignition), kWh. */
  electricKwh: number;
}

export function clothesDrying(home: Home): ApplianceEnergy {
  if (home.dryerFuel === 'none') return { fuelKwh: 0, electricKwh: 0 };
  const poundsPerYear = dryerLoadsPerYear(home) * DRYER_TEST_LOAD_LB;
  if (home.dryerFuel === 'electricity') {
    return { fuelKwh: poundsPerYear / (home.dryerHeatPump ? CEF_HEAT_PUMP : CEF_ELECTRIC), electricKwh: 0 };
  }
  const total = poundsPerYear / CEF_GAS;
  return { fuelKwh: total * (1 - GAS_DRYER_ELECTRIC_SHARE), electricKwh: total * GAS_DRYER_ELECTRIC_SHARE };
}

/** Induction delivers ≈ 10 % more of its input to the pot than a resistance element (approx.). */
const INDUCTION_SAVINGS = 0.1;

/**
 * ANSI/RESNET/ICC 301 reference range and oven: electric 331 + 39 × N_br kWh; gas (and propane)
 * 22.6 + 2.7 × N_br therms plus 22.6 + 2.7 × N_br kWh of electricity (approx., verify).
 */
export function cooking(home: Home): ApplianceEnergy {
  const bedrooms = home.bedrooms;
  if (home.rangeFuel === 'none') return { fuelKwh: 0, electricKwh: 0 };
  if (home.rangeFuel === 'electricity') {
    const kwh = 331 + 39 * bedrooms;
    return { fuelKwh: home.rangeInduction ? kwh * (1 - INDUCTION_SAVINGS) : kwh, electricKwh: 0 };
  }
  const therms = 22.6 + 2.7 * bedrooms;
  return { fuelKwh: therms * KWH_PER_THERM, electricKwh: 22.6 + 2.7 * bedrooms };
}

/**
 * Everything else, electricity: refrigerator ≈ 650 kWh (RECS 2020 typical, approx.); lighting 0.45 kWh/ft²
 * (LED/CFL mix, approx.); miscellaneous plug loads 0.91 kWh/ft² and televisions 413 + 69 × N_br kWh
 * (ANSI/RESNET/ICC 301 reference home, approx.); dishwasher and clothes washer 150 + 40 × N_br kWh (approx.).
 */
export function otherElectricKwh(home: Home): number {
  return (
    650 +
    0.45 * home.floorAreaFt2 +
    0.91 * home.floorAreaFt2 +
    413 +
    69 * home.bedrooms +
    150 +
    40 * home.bedrooms
  );
}
