import type { RemAddressQuery } from '../../schemas/rem-api.ts';
import { HttpError } from '../errors.ts';
import { writtenAddress } from '../geocoding/locate-address.ts';
import { remMessages } from './messages.ts';
import type { RemSnapshot } from './rem-data.ts';
import { countyOf } from './resolve-county.ts';
import { requireWaterHeaterFuel } from './savings-request.ts';

/**
 * What keys an /rem/address answer when addresses are located offline (by the ZIP they are written
 * with): the county's cluster (county, heating fuel, water-heater fuel), the upgrade and the grid basis.
 * The answer names no address and is a function of exactly these, so every address of a county with the
 * same fuels shares one cached answer and one ETag, as every income of one class does for the calculator.
 * Undefined when the request is refused before its cluster is known (no REM data yet, an address that
 * cannot be placed, a water-heater fuel missing): the handler then answers it, known by its URL.
 */
export function addressAnswerKey(snapshot: RemSnapshot, query: RemAddressQuery): string | undefined {
  const data = snapshot.data;
  if (data === null) return undefined;
  // The words of a refusal do not matter here: a refused request is not keyed.
  const text = remMessages.en;
  try {
    requireWaterHeaterFuel(query, text);
    const written = writtenAddress(query.address, {
      stateOfZip: (zip) => data.zipStates.get(zip),
      language: query.language,
    });
    const { fips } = countyOf(data, written, text);
    return `${fips} ${query.heating_fuel} ${query.water_heater_fuel ?? '-'} ${query.upgrade} ${query.grid_emissions}`;
  } catch (error) {
    if (error instanceof HttpError) return undefined;
    throw error;
  }
}
