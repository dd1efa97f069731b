import { beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../../serve/errors.ts';
import { GeocoderUnavailableError } from '../../../serve/geocoding/geocoder.ts';
import { offlineGeocoder } from '../../../serve/geocoding/open-geocoder.ts';
import { zipStatesOf } from '../../../serve/geocoding/zip-states.ts';
import type { IncentivesData } from '../../../serve/incentives/incentives-data.ts';
import { messages } from '../../../serve/incentives/messages.ts';
import { resolveLocation, uncoveredLocation } from '../../../serve/incentives/resolve-location.ts';
import { fixtureData } from '../../support/incentives/fixture-data.ts';

// The fixture's locations are in RI, CO and SD; the postal table knows ZIPs beyond them.
let data: IncentivesData;
beforeAll(async () => {
  data = {
    ...(await fixtureData()),
    zipStates: zipStatesOf([
      { zip: '02903', state: 'RI' },
      { zip: '02906', state: 'RI' },
      { zip: '79401', state: 'TX' },
    ]),
  };
});

const failure = async (query: { zip?: string; address?: string; language: 'en' | 'es' }) => {
  const error = await resolveLocation(data, query, offlineGeocoder, messages[query.language]).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return (error as HttpError).body();
};

describe('resolveLocation', () => {
  it('answers a geocoder outage with its own code, 503 and Retry-After naming the address, not INTERNAL', async () => {
    const down = {
      locate: async () => {
        throw new GeocoderUnavailableError('timeout');
      },
    };
    const error = await resolveLocation(
      {} as IncentivesData,
      { address: '1 Main St', language: 'es' },
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

  it('says the data does not cover the state of a real ZIP outside it, 404 naming the location', async () => {
    expect(await failure({ zip: '79401', language: 'en' })).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'The incentives data being served does not cover TX, where ZIP code 79401 is.',
      field: 'location',
    });
    expect((await failure({ zip: '79401', language: 'es' })).message).toBe(
      'Los datos de incentivos publicados no cubren TX, donde está el código postal 79401.',
    );
    expect(await failure({ address: '1 Main St, Lubbock, TX 79401', language: 'en' })).toMatchObject({
      statusCode: 404,
      message: 'The incentives data being served does not cover TX, where ZIP code 79401 is.',
    });
  });

  it('says "no location" for a ZIP of a covered state it lacks, or one no postal data knows', async () => {
    expect(await failure({ zip: '02906', language: 'en' })).toMatchObject({
      statusCode: 404,
      message: 'No location is known for ZIP code 02906.',
      field: 'location',
    });
    expect((await failure({ zip: '99999', language: 'en' })).message).toBe(
      'No location is known for ZIP code 99999.',
    );
    expect((await failure({ address: '1 Main St, Providence, RI 02906', language: 'en' })).message).toBe(
      'The address could not be located.',
    );
  });

  it('refuses an address whose ZIP is in another state than it names, 400 naming both', async () => {
    expect(await failure({ address: '1 Main St, Lubbock, TX 02903', language: 'en' })).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message:
        'address: ZIP code 02903 is in RI, not in TX, the state the address names; correct one of the two',
      field: 'address',
    });
  });

  it('falls back on the locations’ states for the check when the snapshot has no postal table', async () => {
    const withoutPostal = { ...data, zipStates: new Map() };
    const error = await resolveLocation(
      withoutPostal,
      { address: '1 Main St, Boulder, RI 80301', language: 'en' },
      offlineGeocoder,
      messages.en,
    ).catch((e: unknown) => e);
    expect((error as HttpError).body()).toMatchObject({ statusCode: 400, field: 'address' });
    expect((error as HttpError).message).toContain('ZIP code 80301 is in CO, not in RI');
    const location = await resolveLocation(
      withoutPostal,
      { address: '1 Main St, Boulder, CO 80301', language: 'en' },
      offlineGeocoder,
      messages.en,
    );
    expect([location.zip, location.state]).toEqual(['80301', 'CO']);
  });
});

describe('uncoveredLocation', () => {
  const covered = { locationStates: new Set(['RI', 'CO']) };
  it('says the state is not covered only when a state is known and outside the data', () => {
    expect(uncoveredLocation(covered, '79401', 'TX', 'otherwise', messages.en).message).toBe(
      'The incentives data being served does not cover TX, where ZIP code 79401 is.',
    );
    expect(uncoveredLocation(covered, '02906', 'RI', 'otherwise', messages.en).message).toBe('otherwise');
    expect(uncoveredLocation(covered, '99999', undefined, 'otherwise', messages.en).message).toBe(
      'otherwise',
    );
  });
});
