import { closestIds } from './closest-ids.ts';
import type { Language } from '../../schemas/incentives/enums.ts';
import { errors } from '../errors.ts';
import type { Geocoder } from '../geocoding/geocoder.ts';
import { locateAddress } from '../geocoding/locate-address.ts';
import type { IncentivesData, Location, StateCatalog } from './incentives-data.ts';
import type { Messages } from './messages.ts';
import { areaContains } from './eligibility/point-in-area.ts';

/** A 404 naming `location`: no data covers the ZIP or address. */
export const locationNotFound = (message: string) => errors.notInData(message, 'location');

/** A ZIP's state: its postal one where known, else that of the location the data has for it. */
const stateOfZip = (data: IncentivesData, zip: string): string | undefined =>
  data.zipStates.get(zip) ?? data.locations.get(zip)?.state;

/**
 * The 404 for a ZIP in `state` (when known) that no location covers: the data does not cover the state at
 * all, or it does but not this ZIP (`otherwise`).
 */
export function uncoveredLocation(
  data: Pick<IncentivesData, 'locationStates'>,
  zip: string,
  state: string | undefined,
  otherwise: string,
  text: Messages,
) {
  const stateUncovered = state !== undefined && !data.locationStates.has(state);
  return locationNotFound(stateUncovered ? text.stateNotCovered(state, zip) : otherwise);
}

/**
 * The location of a request: a ZIP from the precomputed table, or an address through the geocoder and
 * then its ZIP. When the geocoder names the county, only that county of the ZIP's area counts (a ZIP can
 * straddle counties). 404 (field "location") when nothing covers it, saying so when the data does not
 * cover its state; 400 (field "address") for an address whose ZIP is in another state than it names;
 * 503 when the geocoder is down.
 */
export async function resolveLocation(
  data: IncentivesData,
  query: { zip?: string | undefined; address?: string | undefined; language: Language },
  geocoder: Geocoder,
  text: Messages,
): Promise<Location> {
  if (query.zip !== undefined) {
    const location = data.locations.get(query.zip);
    if (!location) {
      const state = stateOfZip(data, query.zip);
      throw uncoveredLocation(data, query.zip, state, text.zipNotFound(query.zip), text);
    }
    return location;
  }
  const geocoded = await locateAddress(geocoder, query.address!, {
    stateOfZip: (zip) => stateOfZip(data, zip),
    language: query.language,
    unavailable: () => errors.geocoderUnavailable(text.geocoderUnavailable),
  });
  if (!geocoded) throw locationNotFound(text.addressNotFound);
  const location = data.locations.get(geocoded.zip);
  if (!location) throw uncoveredLocation(data, geocoded.zip, geocoded.state, text.addressNotFound, text);
  const inCounty = narrowToCounty(location, geocoded.countyFips);
  const { lat, lon } = geocoded;
  return lat === undefined || lon === undefined
    ? inCounty
    : placeInCustomAreas(inCounty, data.states.get(location.state)?.customAreas ?? [], lon, lat);
}

/**
 * With coordinates, the custom geographies (towns, districts) are those containing the point rather
 * than every one overlapping the ZIP's area, so a neighbouring town's incentives are not offered.
 */
function placeInCustomAreas(
  location: Location,
  areas: StateCatalog['customAreas'],
  lon: number,
  lat: number,
): Location {
  const containing = areas.filter((area) => areaContains(area.polygons, lon, lat)).map((area) => area.id);
  if (containing.length === 0 && location.customGeographyIds.size === 0) return location;
  return {
    ...location,
    geographyIds: [
      ...location.geographyIds.filter((id) => !location.customGeographyIds.has(id)),
      ...containing,
    ],
    customGeographyIds: new Set(containing),
  };
}

function narrowToCounty(location: Location, countyFips: string | undefined): Location {
  if (countyFips === undefined || !location.counties.includes(countyFips) || location.counties.length === 1) {
    return location;
  }
  const otherCounties = new Set(
    [...location.countyGeographyIds].filter(([fips]) => fips !== countyFips).map(([, id]) => id),
  );
  return {
    ...location,
    countyFips,
    counties: [countyFips],
    json: JSON.stringify({ state: location.state, city: location.city, county_fips: countyFips }),
    geographyIds: location.geographyIds.filter((id) => !otherCounties.has(id)),
  };
}

/**
 * Geography ids of the requested utility territories, checked against the location's state: a 400
 * naming the field if one is unknown there. `gas_utility=none` ("no gas service") adds nothing.
 */
export function resolveUtilities(
  catalog: StateCatalog | undefined,
  location: Location,
  query: { utility?: string | undefined; gas_utility?: string | undefined },
  text: Messages,
): number[] {
  const ids: number[] = [];
  if (query.utility !== undefined) {
    const known = catalog?.electricUtilities;
    ids.push(
      requestedUtility(query.utility, known, location.electricUtilities, 'utility', (closest) =>
        text.unknownUtility(query.utility!, location.state, closest),
      ),
    );
  }
  if (query.gas_utility !== undefined && query.gas_utility !== 'none') {
    const known = catalog?.gasUtilities;
    ids.push(
      requestedUtility(query.gas_utility, known, location.gasUtilities, 'gas_utility', (closest) =>
        text.unknownGasUtility(query.gas_utility!, location.state, closest),
      ),
    );
  }
  return ids;
}

/** The geography id of a requested utility, or a 400 on `field` suggesting the closest ids serving the location. */
function requestedUtility(
  given: string,
  known: StateCatalog['electricUtilities'] | undefined,
  serving: readonly string[],
  field: string,
  unknown: (closest: string[]) => string,
): number {
  const utility = known?.get(given);
  if (utility) return utility.id;
  // Only ids serving the location are suggested: another would trade a 400 for a wrong answer.
  const candidates = serving.filter((id) => known?.has(id) ?? false);
  throw errors.badRequest(unknown(closestIds(given, candidates)), field);
}

/** Asking for utility (or gas utility) incentives or programs needs the utility: 400 naming it otherwise. */
export function requireRequestedUtilities(
  query: {
    authority_types?: readonly string[] | undefined;
    utility?: string | undefined;
    gas_utility?: string | undefined;
  },
  utilityRequired: string,
  text: Messages,
): void {
  const types = query.authority_types;
  if (types?.includes('utility') && query.utility === undefined) {
    throw errors.badRequest(utilityRequired, 'utility');
  }
  if (types?.includes('gas_utility') && (query.gas_utility === undefined || query.gas_utility === 'none')) {
    throw errors.badRequest(text.gasUtilityRequired, 'gas_utility');
  }
}
