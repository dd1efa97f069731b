import type {
  ATTIC_TYPE_OPTIONS,
  BUILDING_TYPE_OPTIONS,
  BuildingFeatures,
  COOLING_TYPE_OPTIONS,
  ESTIMATE_TYPES,
  HEATING_TYPE_OPTIONS,
} from '../../schemas/rem-api.ts';
import type { Home } from '../../schemas/rem.ts';

/**
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

/**
 * What a profile's answer is over: homes matching the building (`address_level`), or, when no feature it
 * honours is known, every home drawn for the county and fuels (`county_level`, as /rem/address labels them).
 */
export const profileEstimateType = (features: BuildingFeatures): (typeof ESTIMATE_TYPES)[number] =>
  Object.values(features).some((value) => value != null) ? 'address_level' : 'county_level';

/** `G4400070` (GISJOIN: G + state FIPS + 0 + county FIPS + 0) or `44007` → `44007`. */
export const countyFipsOf = (county: string): string =>
  county.startsWith('G') ? county.slice(1, 3) + county.slice(4, 7) : county;
