import {
  sampleConditionsSchema,
  samplingCountySchema,
  zoneTemperature,
  type Climate,
  type ClimateZone,
  type Fuel,
  type Home,
  type SampleConditions,
  type SamplingCounty,
} from '../../schemas/rem.ts';
import { climateById } from '../climate/climate.ts';
import { stateClimates } from '../climate/location-climate.ts';
import { EER_PER_SEER } from '../equipment/heat-pumps.ts';
import { stateFuelShares } from '../parameters/heating-fuel.ts';
import * as P from '../parameters/housing-stock.ts';
import { SplitMix64 } from '../random.ts';

/**
 * Draws realistic homes for a county, conditioned on the household's known fuels, from the coarse
 * conditional tables in model/parameters (ancestral sampling: county climate → type → vintage → size →
 * envelope → heating (fixed fuel) → cooling → water heating (fixed fuel if given) → appliances). The county
 * brings its climate zone, weather station and mobile-home share; what no county table has (heating fuel,
 * equipment, envelope) comes from the state and zone tables. Home i depends only on (seed, i), so a smaller
 * batch is a prefix of a larger one.
 */

export interface SampledHome {
  home: Home;
  climate: Climate;
}

export type SampleResult =
  | { supported: true; parametersVersion: string; samples: SampledHome[] }
  | {
      supported: false;
      reason: 'unsupported_location' | 'implausible_combination';
      message: string;
    };

export const SAMPLER_PARAMETERS_VERSION = P.HOUSING_STOCK_VERSION;

/** A climate the homes of a draw live in: the zone they are built for and the station that gives the weather. */
interface ZoneClimate {
  climateZone: ClimateZone;
  climate: Climate;
}

export function sampleHomes(
  county: SamplingCounty,
  conditions: SampleConditions,
  n: number,
  seed: number | bigint,
): SampleResult {
  const { state, climateZone, stationId, mobileHomeShare, heatingFuelShares } =
    samplingCountySchema.parse(county);
  return draw(state, conditions, n, seed, {
    climates: [[{ climateZone, climate: climateById(stationId) }, 1]],
    mobileHomeShare,
    heatingFuelShares: heatingFuelShares ?? null,
  });
}

/**
 * Homes of a whole state: its households' climate-zone mix (parameters/locations.ts) and its census
 * region's housing mix. The surrogate's training draw and the state summaries use it; answers for an
 * address use `sampleHomes` with the address's county.
 */
export function sampleStateHomes(
  state: string,
  conditions: SampleConditions,
  n: number,
  seed: number | bigint,
): SampleResult {
  samplingCountySchema.shape.state.parse(state);
  const climates = stateClimates(state)?.map(
    ({ climateZone, climate, share }) => [{ climateZone, climate }, share] as const,
  );
  return draw(state, conditions, n, seed, {
    climates: climates ?? [],
    mobileHomeShare: null,
    heatingFuelShares: null,
  });
}

function draw(
  state: string,
  conditions: SampleConditions,
  n: number,
  seed: number | bigint,
  place: {
    climates: P.Weights<ZoneClimate>;
    mobileHomeShare: number | null;
    /** The place's own heating-fuel shares, or null for its state's. */
    heatingFuelShares: Readonly<Record<Fuel, number>> | null;
  },
): SampleResult {
  const { heatingFuel, waterHeaterFuel } = sampleConditionsSchema.parse(conditions);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`);

  const heatingShares = P.HEATING_FUEL_BY_STATE[state];
  const region = P.CENSUS_REGION[state];
  if (!heatingShares || !region || place.climates.length === 0) {
    return {
      supported: false,
      reason: 'unsupported_location',
      message: `state ${state} is not modelled: the model covers the contiguous United States and DC`,
    };
  }
  // Whether a fuel is plausible is judged by the state: a household saying it heats with a fuel its county's
  // survey sample barely shows is answered from the county's homes, not refused.
  const pHeating = fuelShare(heatingShares, heatingFuel);
  if (pHeating < P.IMPLAUSIBLE_PROBABILITY) {
    return implausible(`${heatingFuel} heating is (almost) never found in ${state}`);
  }
  const waterFuels = waterHeaterFuelWeights(heatingFuel, place.heatingFuelShares ?? stateFuelShares(state)!);
  if (waterHeaterFuel && weightOf(waterFuels, waterHeaterFuel) < P.IMPLAUSIBLE_PROBABILITY) {
    return implausible(
      `a ${waterHeaterFuel} water heater with ${heatingFuel} heating is (almost) never found in ${state}; ` +
        'omit water_heater_fuel to sample it',
    );
  }

  const context: DrawContext = {
    climates: place.climates,
    buildingTypes: buildingTypeWeights(region, place.mobileHomeShare),
    heatingFuel,
    waterHeaterFuel,
    waterFuels,
  };
  const samples: SampledHome[] = [];
  for (let i = 0; i < n; i++) samples.push(drawHome(new SplitMix64(mixSeed(seed, i)), context));
  return { supported: true, parametersVersion: P.HOUSING_STOCK_VERSION, samples };
}

/**
 * The region's building-type mix, or, given a county's mobile-home share, that share for mobile homes and
 * the rest split between detached and attached homes as in the region.
 */
function buildingTypeWeights(region: P.Region, mobileHomeShare: number | null): P.Weights<P.BuildingType> {
  const regional = P.BUILDING_TYPE_BY_REGION[region];
  if (mobileHomeShare === null) return regional;
  const siteBuilt = regional.filter(([type]) => type !== 'mobile_home');
  const siteBuiltTotal = siteBuilt.reduce((sum, [, w]) => sum + w, 0);
  return [
    ...siteBuilt.map(([type, w]) => [type, ((1 - mobileHomeShare) * w) / siteBuiltTotal] as const),
    ['mobile_home', mobileHomeShare],
  ];
}

function implausible(message: string): SampleResult {
  return { supported: false, reason: 'implausible_combination', message };
}

const fuelShare = (shares: readonly [number, number, number, number], fuel: Fuel): number =>
  shares[P.FUEL_ORDER.indexOf(fuel)]! / shares.reduce((a, b) => a + b, 0);

function waterHeaterFuelWeights(
  heatingFuel: Fuel,
  heatingShares: Readonly<Record<Fuel, number>>,
): P.Weights<Fuel> {
  const base = P.WATER_HEATER_FUEL_GIVEN_HEATING[heatingFuel];
  const weights = P.FUEL_ORDER.map((fuel): [Fuel, number] => {
    const availability =
      fuel === 'electricity' ? 1 : Math.min(1, heatingShares[fuel] / P.FUEL_AVAILABILITY_SHARE);
    return [fuel, base[fuel] * availability];
  });
  const total = weights.reduce((sum, [, w]) => sum + w, 0);
  return weights.map(([fuel, w]) => [fuel, w / total] as const);
}

const weightOf = <T>(weights: P.Weights<T>, option: T): number =>
  weights.find(([o]) => o === option)?.[1] ?? 0;

/** Seed for home i: the base seed and the index through one SplitMix64 step, so streams do not overlap. */
function mixSeed(seed: number | bigint, index: number): bigint {
  const base = BigInt.asUintN(64, BigInt(seed));
  return BigInt.asUintN(64, base * 0x9e3779b97f4a7c15n + BigInt(index) * 0xbf58476d1ce4e5b9n + 1n);
}

function pick<T>(rng: SplitMix64, weights: P.Weights<T>): T {
  let total = 0;
  for (let i = 0; i < weights.length; i++) total += weights[i]![1];
  let u = rng.next() * total;
  for (let i = 0; i < weights.length; i++) {
    u -= weights[i]![1];
    if (u < 0) return weights[i]![0];
  }
  return weights[weights.length - 1]![0];
}

const clamp = (x: number, min: number, max: number): number => (x < min ? min : x > max ? max : x);
const round1 = (x: number): number => Math.round(x * 10) / 10;

interface DrawContext {
  climates: P.Weights<ZoneClimate>;
  buildingTypes: P.Weights<P.BuildingType>;
  heatingFuel: Fuel;
  waterHeaterFuel: Fuel | undefined;
  waterFuels: P.Weights<Fuel>;
}

function drawHome(rng: SplitMix64, ctx: DrawContext): SampledHome {
  const { climateZone, climate } = pick(rng, ctx.climates);
  const group = P.zoneGroupOf(zoneTemperature(climateZone));

  const buildingType = pick(rng, ctx.buildingTypes);
  const isMobile = buildingType === 'mobile_home';
  const vintage = pick(rng, isMobile ? P.MOBILE_HOME_VINTAGE : P.VINTAGE_BY_ZONE_GROUP[group]);
  const era = P.eraOf(vintage);
  const floorAreaFt2 = Math.round(
    clamp(
      P.FLOOR_AREA_MEDIAN_FT2[buildingType][era] * Math.exp(P.FLOOR_AREA_LOG_SD * rng.normal()),
      ...P.FLOOR_AREA_LIMITS_FT2,
    ),
  );
  const stories = isMobile ? 1 : drawStories(rng, buildingType, floorAreaFt2);
  const b = P.BEDROOMS;
  const bedrooms = Math.round(
    clamp(b.intercept + floorAreaFt2 / b.ft2PerBedroom + b.sd * rng.normal(), b.min, b.max),
  );
  const o = P.OCCUPANTS;
  const occupants = Math.round(
    clamp(o.intercept + o.perBedroom * bedrooms + o.sd * rng.normal(), o.min, o.max),
  );

  const foundation = isMobile ? 'pier_and_beam' : pick(rng, P.FOUNDATION_BY_ZONE[climateZone]);
  const atticType = isMobile || rng.next() < P.FINISHED_ROOF_SHARE ? 'finished_roof' : 'vented_attic';
  const window = P.WINDOW_TYPES[pick(rng, P.WINDOW_TYPE_BY_ERA[era])];
  const ach50 = round1(
    clamp(
      P.ACH50_MEDIAN[era] *
        P.ACH50_CLIMATE_FACTOR[climateZone] *
        (isMobile ? P.MOBILE_HOME_ACH50_FACTOR : 1) *
        Math.exp(P.ACH50_LOG_SD * rng.normal()),
      ...P.ACH50_LIMITS,
    ),
  );
  const wwr = P.WINDOW_WALL_RATIO;

  const heating = drawHeating(rng, ctx.heatingFuel, group, isMobile);
  const coolingType = pick(rng, P.COOLING_TYPE_BY_ZONE[climateZone]);
  const hasDucts = heating.heatingType === 'furnace' || coolingType === 'central_ac';
  const ductLocation = !hasDucts
    ? 'none'
    : stories > 1 && rng.next() < P.DUCTS_IN_CONDITIONED_SPACE
      ? 'conditioned_space'
      : foundation === 'slab'
        ? 'attic'
        : foundation === 'crawlspace' || foundation === 'pier_and_beam'
          ? 'crawlspace'
          : 'basement';
  const leakage = P.DUCT_LEAKAGE[era];

  const waterHeaterFuel = ctx.waterHeaterFuel ?? pick(rng, ctx.waterFuels);
  const water = pick<P.WaterHeaterOption>(rng, P.WATER_HEATER_BY_FUEL[waterHeaterFuel]);
  const tanks = waterHeaterFuel === 'electricity' ? P.TANK_GAL_ELECTRIC : P.TANK_GAL_FOSSIL;

  const gasService = ctx.heatingFuel === 'natural_gas' || waterHeaterFuel === 'natural_gas';
  const propaneService = ctx.heatingFuel === 'propane' || waterHeaterFuel === 'propane';
  const dryerFuel =
    rng.next() >= P.HAS_DRYER
      ? 'none'
      : gasService && rng.next() < P.GAS_DRYER_GIVEN_GAS_SERVICE
        ? 'natural_gas'
        : propaneService && rng.next() < P.PROPANE_DRYER_GIVEN_PROPANE
          ? 'propane'
          : 'electricity';
  const rangeFuel =
    gasService && rng.next() < P.GAS_RANGE_GIVEN_GAS_SERVICE
      ? 'natural_gas'
      : propaneService && rng.next() < P.PROPANE_RANGE_GIVEN_PROPANE
        ? 'propane'
        : 'electricity';

  const setpoint = P.HEATING_SETPOINT_F;
  const coolSetpoint = P.COOLING_SETPOINT_F;
  // Built field by field from the tables (tests check every sampled home against homeSchema).
  const home: Home = {
    climateZone,
    buildingType,
    floorAreaFt2,
    stories,
    vintage,
    bedrooms,
    occupants,
    foundation,
    foundationInsulationR: pick(rng, P.FOUNDATION_INSULATION_R[era]),
    atticType,
    ceilingInsulationR: pick(rng, P.CEILING_INSULATION_R[era][group]),
    wallInsulationR: pick(rng, P.WALL_INSULATION_R[era][group]),
    ach50,
    windowWallRatio: round1(clamp(wwr.mean + wwr.sd * rng.normal(), wwr.min, wwr.max) * 100) / 100,
    windowU: window.u,
    windowShgc: window.shgc,
    ductLocation,
    ductLeakage: hasDucts
      ? Math.round(clamp(leakage.mean + leakage.sd * rng.normal(), ...P.DUCT_LEAKAGE_LIMITS) * 100) / 100
      : 0,
    ductInsulationR: hasDucts ? pick(rng, P.DUCT_INSULATION_R[era]) : 0,
    heatingFuel: ctx.heatingFuel,
    heatingType: heating.heatingType,
    heatingAfue: heating.afue,
    heatPump: null,
    heatingSetpointF: Math.round(
      clamp(setpoint.mean + setpoint.sd * rng.normal(), setpoint.min, setpoint.max),
    ),
    heatingSetbackF: pick(rng, P.HEATING_SETBACK_F),
    coolingType,
    coolingEer:
      coolingType === 'central_ac'
        ? Math.round(pick(rng, P.CENTRAL_AC_SEER) * EER_PER_SEER * 1000) / 1000
        : coolingType === 'room_ac'
          ? pick(rng, P.ROOM_AC_EER)
          : 0,
    cooledFraction:
      coolingType === 'central_ac' ? 1 : coolingType === 'room_ac' ? pick(rng, P.ROOM_AC_COOLED_FRACTION) : 0,
    coolingSetpointF: Math.round(
      clamp(coolSetpoint.mean + coolSetpoint.sd * rng.normal(), coolSetpoint.min, coolSetpoint.max),
    ),
    coolingSetupF: pick(rng, P.COOLING_SETUP_F),
    waterHeaterFuel,
    waterHeaterType: water.type,
    waterHeaterUef: water.uef,
    waterHeaterTankGal: water.type === 'tankless' ? 0 : tanks[bedrooms - 1]!,
    dryerFuel,
    dryerHeatPump: dryerFuel === 'electricity' && rng.next() < P.HEAT_PUMP_DRYER_SHARE,
    rangeFuel,
    rangeInduction: rangeFuel === 'electricity' && rng.next() < P.INDUCTION_SHARE,
  };
  return { home, climate };
}

function drawStories(rng: SplitMix64, buildingType: string, floorAreaFt2: number): number {
  if (buildingType === 'single_family_attached') return rng.next() < P.ATTACHED_TWO_STORY_SHARE ? 2 : 1;
  const oneStory = P.DETACHED_ONE_STORY_SHARE.find(([upTo]) => floorAreaFt2 < upTo)![1];
  const u = rng.next();
  return u < oneStory ? 1 : u < 1 - P.DETACHED_THREE_STORY_SHARE ? 2 : 3;
}

function drawHeating(
  rng: SplitMix64,
  fuel: Fuel,
  group: P.ZoneGroup,
  isMobile: boolean,
): { heatingType: 'furnace' | 'boiler' | 'wall_furnace' | 'electric_baseboard'; afue: number } {
  const heatingType = isMobile ? 'furnace' : pick(rng, P.HEATING_TYPE[fuel][group]);
  if (fuel === 'electricity') return { heatingType, afue: 1 };
  if (fuel === 'fuel_oil') {
    return {
      heatingType,
      afue: pick(rng, heatingType === 'boiler' ? P.BOILER_AFUE_OIL : P.FURNACE_AFUE_OIL),
    };
  }
  const afue =
    heatingType === 'boiler'
      ? pick(rng, P.BOILER_AFUE_GAS)
      : heatingType === 'wall_furnace'
        ? pick(rng, P.WALL_FURNACE_AFUE)
        : pick(rng, P.FURNACE_AFUE_GAS[group]);
  return { heatingType, afue };
}
