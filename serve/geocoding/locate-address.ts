import type { Language } from '../../schemas/incentives/enums.ts';
import { errors } from '../errors.ts';
import { addressMessages } from './messages.ts';
import { GeocoderUnavailableError, type GeocodedAddress, type Geocoder } from './geocoder.ts';
import { parseUsAddress } from './offline-address-parser.ts';
import { zipStateConflict } from './zip-states.ts';

/** What a route that takes an address knows when locating it. */
export interface AddressContext {
  /** The state the data being served places a ZIP in; undefined for a ZIP it does not know. */
  stateOfZip: (zip: string) => string | undefined;
  language: Language;
  /** The route's error for a geocoder that cannot answer (a 503: the address may be fine). */
  unavailable: () => Error;
}

/**
 * Locates an address, the one way every route that takes one does. An address written with a ZIP of
 * another state than the one it names is a 400 naming both, whatever the geocoder (checked on the text as
 * written, before any geocoder is asked); a geocoder that cannot answer becomes `unavailable()`, so an
 * outage is never reported as an address that does not exist.
 */
export async function locateAddress(
  geocoder: Geocoder,
  address: string,
  context: AddressContext,
): Promise<GeocodedAddress | null> {
  writtenAddress(address, context);
  try {
    return await geocoder.locate(address);
  } catch (error) {
    if (error instanceof GeocoderUnavailableError) throw context.unavailable();
    throw error;
  }
}

/**
 * The ZIP and state an address is written with (what the offline geocoder locates it by), or null when
 * it names none; a 400 naming both when its ZIP lies in another state than it names.
 */
export function writtenAddress(
  address: string,
  context: Pick<AddressContext, 'stateOfZip' | 'language'>,
): GeocodedAddress | null {
  const written = parseUsAddress(address);
  const conflict = written === null ? null : zipStateConflict(written, context.stateOfZip);
  if (conflict !== null) {
    throw errors.validation('address', addressMessages[context.language].zipNotInState(conflict));
  }
  return written;
}
