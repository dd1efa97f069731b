import {
  ATTIC_TYPES,
  BUILDING_TYPES,
  COOLING_TYPES,
  DUCT_LOCATIONS,
  END_USES,
  FOUNDATIONS,
  FUELS,
  HEATING_TYPES,
  WATER_HEATER_TYPES,
  zoneMoisture,
  zoneTemperature,
  type Climate,
  type Home,
} from '../schemas/rem.ts';
import { coolingUsesDucts, ductEfficiency, heatingUsesDucts } from './physics/distribution.ts';
import { envelopeOf, unsetEnvelope, type Envelope } from './physics/envelope.ts';
import { designLoads, heatPumpCapacityBtuH, type DesignLoads } from './physics/space-conditioning.ts';
import { hotWaterGallonsPerDay } from './physics/water-heating.ts';
import { END_USE_FUEL_CELLS, SIMULATOR_VERSION, simulateInto } from './simulator.ts';

/**
 * The surrogate's view of a home: a fixed-order vector of raw (unnormalised) numbers — climate summary,
 * geometry, envelope, equipment, one-hot categoricals and engineered physics features — and the simulator
 * run over a batch. The order of FEATURE_NAMES is the contract: append, never reorder.
 */

export { SIMULATOR_VERSION };

interface FeatureInput {
  home: Home;
  climate: Climate;
  envelope: Envelope;
  design: DesignLoads;
}

interface FeatureSpec {
  name: string;
  /**
   * Range over the sampler's support and every upgrade of it: the sampler's own limits where it clamps, else
   * the extremes of an 80,000-home sweep of every state, fuel and upgrade, rounded outwards (checked by
   * test/model/features.test.ts).
   */
  min: number;
  max: number;
  value(input: FeatureInput): number;
}

const numeric = (
  name: string,
  min: number,
  max: number,
  value: (i: FeatureInput) => number,
): FeatureSpec => ({
  name,
  min,
  max,
  value,
});
const flag = (name: string, test: (i: FeatureInput) => boolean): FeatureSpec => ({
  name,
  min: 0,
  max: 1,
  value: (i) => (test(i) ? 1 : 0),
});
const oneHot = <T extends string>(
  prefix: string,
  options: readonly T[],
  pick: (i: FeatureInput) => T,
): FeatureSpec[] => options.map((option) => flag(`${prefix}_${option}`, (i) => pick(i) === option));

const usesFuel = (home: Home, fuel: 'natural_gas' | 'fuel_oil' | 'propane'): boolean =>
  home.heatingFuel === fuel ||
  home.waterHeaterFuel === fuel ||
  home.dryerFuel === fuel ||
  home.rangeFuel === fuel;

/**
 * Heat-pump curve features as in the reference surrogate: for a home without a heat pump, capacity
 * retention is 1 and the COPs equal the heating system's nominal efficiency (AFUE).
 */
const hpRetention = (i: FeatureInput, k: 0 | 1 | 2): number =>
  i.home.heatPump ? i.home.heatPump.capacityRetention[k] : 1;
const hpCop = (i: FeatureInput, k: 0 | 1 | 2): number =>
  i.home.heatPump ? i.home.heatPump.cop[k] : i.home.heatingAfue;

const SPECS: readonly FeatureSpec[] = [
  // Climate
  numeric('hdd65', 100, 9_500, (i) => i.climate.hdd65),
  numeric('cdd65', 100, 5_000, (i) => i.climate.cdd65),
  numeric('heating_design_temp_f', -20, 50, (i) => i.climate.heatingDesignF),
  numeric('cooling_design_temp_f', 80, 112, (i) => i.climate.coolingDesignF),
  numeric('mean_temp_f', 38, 80, (i) => i.climate.meanTempF),
  numeric('ground_temp_f', 40, 82, (i) => i.climate.groundTempF),
  numeric('mains_temp_f', 44, 86, (i) => i.climate.mainsTempF),
  numeric('ghi_kwh_m2_day', 3.5, 6, (i) => i.climate.ghiKwhM2Day),
  numeric('climate_zone_temp', 1, 7, (i) => zoneTemperature(i.home.climateZone)),
  flag('climate_moisture_a', (i) => zoneMoisture(i.home.climateZone) === 'A'),
  flag('climate_moisture_b', (i) => zoneMoisture(i.home.climateZone) === 'B'),
  flag('climate_moisture_c', (i) => zoneMoisture(i.home.climateZone) === 'C'),
  // Geometry and occupancy
  numeric('floor_area_ft2', 500, 6_000, (i) => i.home.floorAreaFt2),
  numeric('stories', 1, 3, (i) => i.home.stories),
  numeric('vintage', 1930, 2015, (i) => i.home.vintage),
  numeric('bedrooms', 1, 6, (i) => i.home.bedrooms),
  numeric('occupants', 1, 8, (i) => i.home.occupants),
  ...oneHot('building_type', BUILDING_TYPES, (i) => i.home.buildingType),
  ...oneHot('foundation', FOUNDATIONS, (i) => i.home.foundation),
  ...oneHot('attic', ATTIC_TYPES, (i) => i.home.atticType),
  // Envelope
  numeric('wall_insulation_r', 0, 21, (i) => i.home.wallInsulationR),
  numeric('ceiling_insulation_r', 0, 60, (i) => i.home.ceilingInsulationR),
  numeric('foundation_insulation_r', 0, 19, (i) => i.home.foundationInsulationR),
  numeric('infiltration_ach50', 1.5, 50, (i) => i.home.ach50),
  numeric('window_wall_ratio', 0.06, 0.3, (i) => i.home.windowWallRatio),
  numeric('window_u', 0.22, 1.16, (i) => i.home.windowU),
  numeric('window_shgc', 0.38, 0.76, (i) => i.home.windowShgc),
  ...oneHot('duct_location', DUCT_LOCATIONS, (i) => i.home.ductLocation),
  numeric('duct_leakage', 0, 0.4, (i) => i.home.ductLeakage),
  numeric('duct_insulation_r', 0, 8, (i) => i.home.ductInsulationR),
  // Engineered envelope physics
  numeric('ua_air_btu_h_f', 100, 2_500, (i) => i.envelope.uaAirBtuHF),
  numeric('ua_ground_btu_h_f', 0, 1_200, (i) => i.envelope.uaGroundBtuHF),
  numeric('ua_infiltration_btu_h_f', 20, 1_000, (i) => i.envelope.uaInfiltrationBtuHF),
  numeric('window_area_ft2', 40, 1_200, (i) => i.envelope.windowAreaFt2),
  numeric('heating_degree_load_mmbtu', 0, 400, (i) => (i.envelope.uaAirBtuHF * i.climate.hdd65 * 24) / 1e6),
  numeric('cooling_degree_load_mmbtu', 0, 300, (i) => (i.envelope.uaAirBtuHF * i.climate.cdd65 * 24) / 1e6),
  numeric('design_heating_load_kbtu_h', 0, 300, (i) => i.design.heatingBtuH / 1000),
  numeric('design_cooling_load_kbtu_h', 0, 200, (i) => i.design.coolingBtuH / 1000),
  numeric('heating_distribution_efficiency', 0.4, 1, (i) =>
    heatingUsesDucts(i.home) ? ductEfficiency(i.home) : 1,
  ),
  numeric('cooling_distribution_efficiency', 0.4, 1, (i) =>
    coolingUsesDucts(i.home) ? ductEfficiency(i.home) : 1,
  ),
  // Heating
  ...oneHot('heating_fuel', FUELS, (i) => i.home.heatingFuel),
  ...oneHot('heating_type', HEATING_TYPES, (i) => i.home.heatingType),
  numeric('heating_afue', 0.6, 1, (i) => i.home.heatingAfue),
  numeric('heating_setpoint_f', 60, 76, (i) => i.home.heatingSetpointF),
  numeric('heating_setback_f', 0, 8, (i) => i.home.heatingSetbackF),
  // Heat pump performance curve
  flag('heat_pump_sizing_hers', (i) => i.home.heatPump?.sizing === 'hers'),
  flag('heat_pump_ducted', (i) => i.home.heatPump?.ducted === true),
  numeric('heat_pump_seer', 0, 29.3, (i) => i.home.heatPump?.seer ?? 0),
  numeric('heat_pump_hspf', 0, 14, (i) => i.home.heatPump?.hspf ?? 0),
  numeric('heat_pump_capacity_kbtu_h', 0, 300, (i) => heatPumpCapacityBtuH(i.home, i.design) / 1000),
  numeric('capacity_retention_47f', 0.4, 1.1, (i) => hpRetention(i, 0)),
  numeric('capacity_retention_17f', 0.4, 1.1, (i) => hpRetention(i, 1)),
  numeric('capacity_retention_5f', 0.4, 1.1, (i) => hpRetention(i, 2)),
  numeric('cop_47f', 0.6, 5, (i) => hpCop(i, 0)),
  numeric('cop_17f', 0.6, 5, (i) => hpCop(i, 1)),
  numeric('cop_5f', 0.6, 5, (i) => hpCop(i, 2)),
  // Cooling
  ...oneHot('cooling_type', COOLING_TYPES, (i) => i.home.coolingType),
  numeric('cooling_eer', 0, 26, (i) => i.home.coolingEer),
  numeric('cooled_fraction', 0, 1, (i) => i.home.cooledFraction),
  numeric('cooling_setpoint_f', 68, 82, (i) => i.home.coolingSetpointF),
  numeric('cooling_setup_f', 0, 8, (i) => i.home.coolingSetupF),
  // Water heating
  ...oneHot('water_heater_fuel', FUELS, (i) => i.home.waterHeaterFuel),
  ...oneHot('water_heater_type', WATER_HEATER_TYPES, (i) => i.home.waterHeaterType),
  numeric('water_heater_uef', 0.55, 3.45, (i) => i.home.waterHeaterUef),
  numeric('water_heater_tank_gal', 0, 80, (i) => i.home.waterHeaterTankGal),
  numeric('hot_water_gal_per_day', 30, 130, (i) => hotWaterGallonsPerDay(i.home.occupants)),
  // Appliances
  ...oneHot(
    'dryer_fuel',
    ['none', 'electricity', 'natural_gas', 'propane'] as const,
    (i) => i.home.dryerFuel,
  ),
  flag('dryer_heat_pump', (i) => i.home.dryerHeatPump),
  ...oneHot(
    'range_fuel',
    ['none', 'electricity', 'natural_gas', 'propane'] as const,
    (i) => i.home.rangeFuel,
  ),
  flag('range_induction', (i) => i.home.rangeInduction),
  // Fuel flags: which non-electric fuels the home uses at all (a fuel it does not use must predict 0)
  flag('has_natural_gas_appliance', (i) => usesFuel(i.home, 'natural_gas')),
  flag('has_fuel_oil_appliance', (i) => usesFuel(i.home, 'fuel_oil')),
  flag('has_propane_appliance', (i) => usesFuel(i.home, 'propane')),
];

/** Names of the encoded features, in vector order. */
export const FEATURE_NAMES: readonly string[] = SPECS.map((s) => s.name);

/** Min / max of each feature over the sampler's support and its upgrades, for the model card. */
export const FEATURE_RANGES: Readonly<Record<string, { min: number; max: number }>> = Object.fromEntries(
  SPECS.map((s) => [s.name, { min: s.min, max: s.max }]),
);

type Writer = (input: FeatureInput, out: Float32Array, offset: number) => void;

/**
 * SPECS as straight-line functions, `out[offset + k] = value_k(input)` for every k: each feature gets its
 * own call site, which V8 can inline, where a loop over SPECS calls 105 different closures from one site
 * (about a fifth of a cluster's time went to those calls). A few functions of WRITER_FEATURES features
 * each rather than one: one would exhaust TurboFan's inlining budget, and every feature it does not inline
 * returns its number boxed, a heap number per feature and row. Same functions, same order, same values.
 */
const WRITER_FEATURES = 16;
const writers: readonly Writer[] = Array.from(
  { length: Math.ceil(SPECS.length / WRITER_FEATURES) },
  (_, w) => {
    const specs = SPECS.slice(w * WRITER_FEATURES, (w + 1) * WRITER_FEATURES);
    const first = w * WRITER_FEATURES;
    return new Function(
      'values',
      `const [${specs.map((_, k) => `v${k}`).join(', ')}] = values;
       return (input, out, offset) => {
         ${specs.map((_, k) => `out[offset + ${first + k}] = v${k}(input);`).join('\n')}
       };`,
    )(specs.map((spec) => spec.value)) as Writer;
  },
);

/**
 * One input object for every row: encoding is synchronous, and a row's envelope and design loads are
 * written into it in place, so a row allocates no objects (3,200 rows per simulate-stage cluster).
 */
const input: FeatureInput = {
  home: null as unknown as Home,
  climate: null as unknown as Climate,
  envelope: unsetEnvelope(),
  design: { heatingBtuH: NaN, coolingBtuH: NaN },
};

/** Writes the home's FEATURE_NAMES.length raw features into out[offset …]. */
export function encodeFeatures(home: Home, climate: Climate, out: Float32Array, offset: number): void {
  input.home = home;
  input.climate = climate;
  designLoads(home, climate, envelopeOf(home, input.envelope), input.design);
  for (const write of writers) write(input, out, offset);
}

/** Encodes a batch: row i holds homes[i] in climates[i]; row-major, FEATURE_NAMES.length columns. */
export function encodeBatch(homes: readonly Home[], climates: readonly Climate[]): Float32Array {
  assertParallel(homes, climates);
  const out = new Float32Array(homes.length * SPECS.length);
  homes.forEach((home, i) => encodeFeatures(home, climates[i]!, out, i * SPECS.length));
  return out;
}

/**
 * Columns of simulateBatch's output, kWh of site energy per year: the four fuels (the surrogate's targets),
 * then the six end uses summed over fuels. Fuels sum to the same total as end uses.
 */
export const SIMULATION_OUTPUTS: readonly string[] = [...FUELS, ...END_USES];
export const SIMULATION_OUTPUT_STRIDE = SIMULATION_OUTPUTS.length;

/** Runs the simulator on homes[i] in climates[i]; row-major Float64Array, SIMULATION_OUTPUT_STRIDE columns. */
export function simulateBatch(homes: readonly Home[], climates: readonly Climate[]): Float64Array {
  assertParallel(homes, climates);
  const out = new Float64Array(homes.length * SIMULATION_OUTPUT_STRIDE);
  const cells = new Float64Array(END_USE_FUEL_CELLS);
  for (let i = 0; i < homes.length; i++) {
    simulateInto(homes[i]!, climates[i]!, cells, 0);
    const row = i * SIMULATION_OUTPUT_STRIDE;
    for (let e = 0; e < END_USES.length; e++) {
      for (let f = 0; f < FUELS.length; f++) {
        const kwh = cells[e * FUELS.length + f]!;
        out[row + f]! += kwh;
        out[row + FUELS.length + e]! += kwh;
      }
    }
  }
  return out;
}

function assertParallel(homes: readonly Home[], climates: readonly Climate[]): void {
  if (homes.length !== climates.length) {
    throw new RangeError(`homes (${homes.length}) and climates (${climates.length}) must be parallel arrays`);
  }
}
