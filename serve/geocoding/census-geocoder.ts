import type { z } from 'zod';
import { countyFipsSchema, stateCodeSchema, tractGeoidSchema, zipCodeSchema } from '../../schemas/codes.ts';
import { GeocoderUnavailableError, type GeocodedAddress, type Geocoder } from './geocoder.ts';
import { censusGeocoderResponseSchema, type CensusAddressMatch } from './census-response.ts';

export interface CensusGeocoderOptions {
  /** The geocoder's base URL, e.g. https://geocoding.geo.census.gov/geocoder (GEOCODER_URL). */
  baseUrl: string;
  /** Whole-request budget, connection to last byte (GEOCODER_TIMEOUT_MS). */
  timeoutMs: number;
}

/**
 * Longer text is not a one-line US address. Sending it would only earn an HTTP 400/414, which would read
 * as an outage (503) for what is bad input, so it is answered "cannot locate" without a request.
 */
export const MAX_ADDRESS_LENGTH = 300;

/** Whether a code from the Census answer is one the datasets join on. */
const isCode = (code: z.ZodString, value: string | undefined): value is string =>
  value !== undefined && code.safeParse(value).success;

function firstGeoid(match: CensusAddressMatch, layer: string, code: z.ZodString): string | undefined {
  const geoid = match.geographies?.[layer]?.[0]?.GEOID;
  return isCode(code, geoid) ? geoid : undefined;
}

/** The first match as a location; null when the Census answer lacks a usable ZIP or state. */
function toGeocodedAddress(match: CensusAddressMatch): GeocodedAddress | null {
  const zip = match.addressComponents.zip?.trim();
  const state = match.addressComponents.state?.trim().toUpperCase();
  if (!isCode(zipCodeSchema, zip) || !isCode(stateCodeSchema, state)) return null;
  const tractGeoid = firstGeoid(match, 'Census Tracts', tractGeoidSchema);
  const countyFips = firstGeoid(match, 'Counties', countyFipsSchema) ?? tractGeoid?.slice(0, 5);
  return {
    zip,
    state,
    ...(countyFips === undefined ? {} : { countyFips }),
    ...(tractGeoid === undefined ? {} : { tractGeoid }),
    ...(match.coordinates === undefined ? {} : { lat: match.coordinates.y, lon: match.coordinates.x }),
    ...(match.matchedAddress === undefined ? {} : { matchedAddress: match.matchedAddress }),
  };
}

function describeFailure(error: unknown, timeoutMs: number): string {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return `Census geocoder did not answer within ${timeoutMs} ms`;
  }
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const detail = cause?.code ?? cause?.message ?? (error as Error | null)?.message ?? String(error);
  return `Census geocoder could not be reached (${String(detail)})`;
}

/**
 * Locates addresses with the U.S. Census Bureau geocoder (no key needed): one GET of
 * `geographies/onelineaddress` against the current benchmark and vintage. No match is null; a timeout, a
 * network error, a non-2xx answer or an unreadable body is a GeocoderUnavailableError.
 */
export function createCensusGeocoder(options: CensusGeocoderOptions): Geocoder {
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/geographies/onelineaddress`;
  return {
    async locate(address: string): Promise<GeocodedAddress | null> {
      const oneLine = address.replace(/\s+/g, ' ').trim();
      if (oneLine === '' || oneLine.length > MAX_ADDRESS_LENGTH) return null;
      const url = new URL(endpoint);
      url.searchParams.set('address', oneLine);
      url.searchParams.set('benchmark', 'Public_AR_Current');
      url.searchParams.set('vintage', 'Current_Current');
      url.searchParams.set('format', 'json');

      let body: unknown;
      try {
        const response = await fetch(url, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        if (!response.ok) {
          await response.body?.cancel();
          throw new GeocoderUnavailableError(`Census geocoder answered HTTP ${response.status}`);
        }
        body = await response.json();
      } catch (error) {
        if (error instanceof GeocoderUnavailableError) throw error;
        if (error instanceof SyntaxError) {
          throw new GeocoderUnavailableError('Census geocoder answered with invalid JSON', { cause: error });
        }
        throw new GeocoderUnavailableError(describeFailure(error, options.timeoutMs), { cause: error });
      }

      const parsed = censusGeocoderResponseSchema.safeParse(body);
      if (!parsed.success) {
        throw new GeocoderUnavailableError('Census geocoder answered in an unexpected shape', {
          cause: parsed.error,
        });
      }
      const match = parsed.data.result.addressMatches[0];
      return match === undefined ? null : toGeocodedAddress(match);
    },
  };
}
