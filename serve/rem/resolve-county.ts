import type { Language } from '../../schemas/incentives/enums.ts';
import type { RemCountyRow } from '../../schemas/rem-data.ts';
import { errors } from '../errors.ts';
import type { GeocodedAddress, Geocoder } from '../geocoding/geocoder.ts';
import { locateAddress } from '../geocoding/locate-address.ts';
import type { RemMessages } from './messages.ts';
import { CONTIGUOUS_STATES, type RemData } from './rem-data.ts';

/**
 * The county an address lies in: the geocoder's county, else its ZIP's; only the contiguous US and DC.
 * 404 naming `address` when it cannot be placed in a county the data knows, 400 outside the REM's
 * states or when its ZIP is in another state than it names, 503 when the geocoder is down (never "not
 * found": the address may be fine).
 */
export async function resolveCounty(
  data: RemData,
  query: { address: string; language: Language },
  geocoder: Geocoder,
  text: RemMessages,
): Promise<{ fips: string; county: RemCountyRow }> {
  const located = await locateAddress(geocoder, query.address, {
    stateOfZip: (zip) => data.zipStates.get(zip),
    language: query.language,
    unavailable: () => errors.geocoderUnavailable(text.geocoderUnavailable),
  });
  return countyOf(data, located, text);
}

/** The county of a located address (see `resolveCounty`), with the same refusals. */
export function countyOf(
  data: RemData,
  located: GeocodedAddress | null,
  text: RemMessages,
): { fips: string; county: RemCountyRow } {
  if (located === null) throw errors.notInData(text.addressNotFound, 'address');
  if (!CONTIGUOUS_STATES.has(located.state)) {
    throw errors.badRequest(text.outsideContiguousUs(located.state), 'address');
  }
  const fips = located.countyFips ?? data.zipCounties.get(located.zip);
  const county = fips === undefined ? undefined : data.counties.get(fips);
  if (fips === undefined || county === undefined) {
    throw errors.notInData(text.zipWithoutCounty(located.zip), 'address');
  }
  if (!CONTIGUOUS_STATES.has(county.state)) {
    throw errors.badRequest(text.outsideContiguousUs(county.state), 'address');
  }
  return { fips, county };
}
