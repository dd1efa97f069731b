import { createHash } from 'node:crypto';
import type {
  ATTIC_TYPE_OPTIONS,
  BUILDING_TYPE_OPTIONS,
  BuildingFeatures,
  COOLING_TYPE_OPTIONS,
  HEATING_TYPE_OPTIONS,
} from '../../schemas/rem-api.ts';
import type { RemCountyRow } from '../../schemas/rem-data.ts';
import type { ProfileJob, ProfileOutcome, ProfileRefusal } from '../../schemas/rem-model.ts';
import type { Home, SampleConditions } from '../../schemas/rem.ts';
import { sampleHomes, type SampledHome, type SampleResult } from '../../model/sampler/sample-homes.ts';
import { samplingCountyOf } from '../../model/sampler/sampling-county.ts';
import { evaluateHomes } from '../../model/evaluate-homes.ts';
import { fuelPricesFor } from '../../model/savings/fuel-prices.ts';
import type { Predictor } from '../../model/surrogate/held-out.ts';

/**
 * POST /rem/profile's homes, computed on demand: the county's homes are drawn with the caller's fuels,
 * the ones that match every known building feature are kept (rejection sampling, bounded), and those go
 * through the same surrogate and statistics as the precomputed clusters (model/savings).
 *
 * What a building profile's known features say about a sample home: each known feature is a test, and a
 * home matches when it passes all of them (the reference's building features narrow its sampling the
 * same way). ResStock option values name the reference's categories; each maps onto our home features.
 */

type Option<T extends readonly string[]> = T[number];

const BUILDING_TYPE: Record<Option<typeof BUILDING_TYPE_OPTIONS>, Home['buildingType'] | null> = {
  'Single-Family Detached': 'single_family_detached',
  'Single-Family Attached': 'single_family_attached',
  'Mobile Home': 'mobile_home',
  // Multi-unit buildings are outside the model's universe: no sample home is one.
  '2 Unit': null,
  '3 or 4 Unit': null,
  '5 to 9 Unit': null,
  '10 to 19 Unit': null,
  '20 to 49 Unit': null,
  '50 or more Unit': null,
};

const ductedHeatPump = (home: Home) => home.heatPump?.ducted === true;
const ductlessHeatPump = (home: Home) => home.heatPump !== null && !home.heatPump.ducted;

const HEATING_TYPE: Record<Option<typeof HEATING_TYPE_OPTIONS>, (home: Home) => boolean> = {
  'Ducted Heating': (home) => home.heatingType === 'furnace',
  'Non-Ducted Heating': (home) =>
    home.heatingType === 'boiler' ||
    home.heatingType === 'wall_furnace' ||
    home.heatingType === 'electric_baseboard',
  'Ducted Heat Pump': (home) => home.heatingType === 'heat_pump' && ductedHeatPump(home),
  'Non-Ducted Heat Pump': (home) => home.heatingType === 'heat_pump' && ductlessHeatPump(home),
  // Every sample home is heated (the model's universe excludes homes without heating).
  None: () => false,
};

const COOLING_TYPE: Record<Option<typeof COOLING_TYPE_OPTIONS>, (home: Home) => boolean> = {
  'Central AC': (home) => home.coolingType === 'central_ac',
  'Room AC': (home) => home.coolingType === 'room_ac',
  'Ducted Heat Pump': (home) => home.coolingType === 'heat_pump' && ductedHeatPump(home),
  'Non-Ducted Heat Pump': (home) => home.coolingType === 'heat_pump' && ductlessHeatPump(home),
  None: (home) => home.coolingType === 'none',
};

const ATTIC_TYPE: Record<Option<typeof ATTIC_TYPE_OPTIONS>, Home['atticType'] | null> = {
  'Vented Attic': 'vented_attic',
  'Finished Attic or Cathedral Ceilings': 'finished_roof',
  // Not among the sampler's attic types.
  'Unvented Attic': null,
  None: null,
};

/** A sample home's floor area matches a stated one within this fraction (sizes are drawn, not exact). */
export const FLOOR_AREA_TOLERANCE = 0.2;

/** The vintage bin of a year built, as homes carry it: the decade's midpoint, before 1940 → 1930, 2010s on → 2015. */
export const vintageBinOf = (year: number): number =>
  year < 1940 ? 1930 : Math.min(2015, Math.floor(year / 10) * 10 + 5);

/** A test of a sample home against every known feature (unknown ones: null, absent). */
export function profileMatcher(features: BuildingFeatures): (home: Home) => boolean {
  const tests: ((home: Home) => boolean)[] = [];
  const area = features.geometry_floor_area;
  if (area != null) tests.push((home) => Math.abs(home.floorAreaFt2 - area) <= FLOOR_AREA_TOLERANCE * area);
  const stories = features.geometry_stories;
  if (stories != null) tests.push((home) => home.stories === stories);
  const bedrooms = features.bedrooms;
  if (bedrooms != null) tests.push((home) => home.bedrooms === bedrooms);
  if (features.vintage != null) {
    const bin = vintageBinOf(features.vintage);
    tests.push((home) => home.vintage === bin);
  }
  const types = features.geometry_building_type_acs;
  if (types != null) {
    const allowed = new Set(types.map((t) => BUILDING_TYPE[t]));
    tests.push((home) => allowed.has(home.buildingType));
  }
  const heating = features.hvac_heating_type;
  if (heating != null) tests.push((home) => heating.some((t) => HEATING_TYPE[t](home)));
  const cooling = features.hvac_cooling_type;
  if (cooling != null) tests.push((home) => cooling.some((t) => COOLING_TYPE[t](home)));
  const attics = features.geometry_attic_type;
  if (attics != null) {
    const allowed = new Set(attics.map((t) => ATTIC_TYPE[t]));
    tests.push((home) => allowed.has(home.atticType));
  }
  return (home) => tests.every((test) => test(home));
}

/** Homes an answer is over, at most (as many as a precomputed cluster). */
export const PROFILE_SAMPLES = 400;
/** Fewer matching homes than this after PROFILE_MAX_DRAWS draws: too rare to estimate. */
export const PROFILE_MIN_MATCHES = 50;
/** Draws per request at most, which bounds a request's work whatever the features. */
export const PROFILE_MAX_DRAWS = 4_000;
const BATCH = 400;

export type MatchingHomes =
  | { supported: true; samples: SampledHome[]; drawn: number }
  | { supported: false; reason: ProfileRefusal; message: string };

/** A 64-bit seed from text: the same request draws the same homes. */
const seedOf = (text: string): bigint =>
  BigInt(`0x${createHash('sha256').update(text).digest('hex').slice(0, 16)}`);

/** Draws the county's homes batch by batch and keeps those `matches` accepts, until enough or the bound. */
export function drawMatchingHomes(
  county: RemCountyRow,
  conditions: SampleConditions,
  matches: (home: Home) => boolean,
  seedText: string,
): MatchingHomes {
  const samples: SampledHome[] = [];
  let drawn = 0;
  for (let batch = 0; samples.length < PROFILE_SAMPLES && drawn < PROFILE_MAX_DRAWS; batch++) {
    const result: SampleResult = sampleHomes(
      samplingCountyOf(county),
      conditions,
      BATCH,
      seedOf(`${seedText}|${batch}`),
    );
    if (!result.supported) return result;
    drawn += BATCH;
    for (const sample of result.samples) {
      if (samples.length < PROFILE_SAMPLES && matches(sample.home)) samples.push(sample);
    }
  }
  if (samples.length < PROFILE_MIN_MATCHES) {
    return {
      supported: false,
      reason: 'too_few_matches',
      message: `${samples.length} of ${drawn} homes drawn match the building features`,
    };
  }
  return { supported: true, samples, drawn };
}

/** The statistics lines of a profile's upgrade over its matching homes (on a model thread when served). */
export async function computeProfile(
  { body, county, rates, factors }: ProfileJob,
  surrogate: Predictor,
): Promise<ProfileOutcome> {
  const conditions: SampleConditions = {
    heatingFuel: body.heating_fuel,
    ...(body.water_heater_fuel ? { waterHeaterFuel: body.water_heater_fuel } : {}),
  };
  const seedText = JSON.stringify([
    county.county_fips,
    body.heating_fuel,
    body.water_heater_fuel ?? null,
    body.building_profile.building_features,
  ]);
  const homes = drawMatchingHomes(
    county,
    conditions,
    profileMatcher(body.building_profile.building_features),
    seedText,
  );
  if (!homes.supported) return homes;
  const evaluation = await evaluateHomes(homes.samples, [body.upgrade], surrogate, {
    cluster: {
      cluster_id: 'profile',
      county_fips: county.county_fips,
      state: county.state,
      heating_fuel: body.heating_fuel,
      water_heater_fuel: body.water_heater_fuel ?? null,
    },
    prices: fuelPricesFor(county.state, rates, factors),
  });
  return { supported: true, lines: evaluation.rows };
}
