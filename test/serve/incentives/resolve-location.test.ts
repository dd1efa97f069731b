import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../serve/errors.ts';
import { GeocoderUnavailableError } from '../../../serve/geocoding/geocoder.ts';
import type { IncentivesData } from '../../../serve/incentives/incentives-data.ts';
import { messages } from '../../../serve/incentives/messages.ts';
import { resolveLocation } from '../../../serve/incentives/resolve-location.ts';

describe('resolveLocation', () => {
  it('answers a geocoder outage with its own code, 503 and Retry-After naming the address, not INTERNAL', async () => {
    const down = {
      locate: async () => {
        throw new GeocoderUnavailableError('timeout');
      },
    };
    const error = await resolveLocation(
      {} as IncentivesData,
      { address: '1 Main St' },
      down,
      messages.es,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    const { statusCode, code, headers } = error as HttpError;
    expect([statusCode, code, headers]).toEqual([503, 'GEOCODER_UNAVAILABLE', { 'retry-after': '30' }]);
    expect((error as HttpError).body()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: messages.es.geocoderUnavailable,
      field: 'address',
    });
  });
});
