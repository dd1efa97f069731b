import type { Language } from '../../schemas/incentives/enums.ts';
import { errors } from '../errors.ts';
import { addressMessages } from './messages.ts';
import { GeocoderUnavailableError, type GeocodedAddress, type Geocoder } from './geocoder.ts';
import { readAddress } from './offline-address-parser.ts';
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
 * Locates an address, the one way every route that takes one does. What the text as written shows is
 * answered before any geocoder is asked, whatever the geocoder: a 400 for an address of another country
 * (only US addresses are served), one that names no street, or one whose ZIP lies in another state than
 * it names. A geocoder that cannot answer becomes `unavailable()`, so an outage is never reported as an
 * address that does not exist.
 */
export async function locateAddress(
  geocoder: Geocoder,
  address: string,
  context: AddressContext,
): Promise<GeocodedAddress | null> {
  const written = writtenAddress(address, context);
  try {
    return await geocoder.locate(address, written ?? undefined);
  } catch (error) {
    if (error instanceof GeocoderUnavailableError) throw context.unavailable();
    throw error;
  }
}

/**
 * The ZIP and state an address is written with (its state as written, else the one the data places its ZIP
 * in), or null when it names no ZIP, or no state the data knows; a 400 for an address of another country,
 * one without a street, or one whose ZIP lies in another state than it names.
 */
export function writtenAddress(
  address: string,
  context: Pick<AddressContext, 'stateOfZip' | 'language'>,
): GeocodedAddress | null {
  const text = addressMessages[context.language];
  const read = readAddress(address);
  if (read.kind === 'foreign') throw errors.validation('address', text.notInUs(read.country));
  if (read.kind === 'no-zip') return null;
  if (!read.street) throw errors.validation('address', text.noStreet);
  const state = read.state ?? context.stateOfZip(read.zip);
  if (state === undefined) return null;
  const conflict = zipStateConflict({ zip: read.zip, state }, context.stateOfZip);
  if (conflict !== null) throw errors.validation('address', text.zipNotInState(conflict));
  return { zip: read.zip, state };
}
