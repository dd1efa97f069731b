import { describe, expect, it } from 'vitest';
import { remCountyRow } from '../../../transform/tables/rem/rem-tables.ts';
import { HttpError } from '../../../serve/errors.ts';
import { GeocoderUnavailableError, type Geocoder } from '../../../serve/geocoding/geocoder.ts';
import { zipStatesOf } from '../../../serve/geocoding/zip-states.ts';
import { remMessages } from '../../../serve/rem/messages.ts';
import type { RemData } from '../../../serve/rem/rem-data.ts';
import { resolveCounty } from '../../../serve/rem/resolve-county.ts';
import { fixtureGridRegion } from '../../support/grid-fixture.ts';
import { FIXTURE_COUNTIES, FIXTURE_ZIPS } from '../../support/rem-lake-fixture.ts';

const data = {
  zipCounties: new Map(FIXTURE_ZIPS.map((zip) => [zip.zip, zip.county_fips])),
  zipStates: zipStatesOf(FIXTURE_ZIPS),
  counties: new Map(
    FIXTURE_COUNTIES.map((county) => [
      county.county_fips,
      remCountyRow(county, fixtureGridRegion(county.county_fips)),
    ]),
  ),
} as unknown as RemData;

const geocoder: Geocoder = {
  locate: async (address) => {
    if (address.includes('down')) throw new GeocoderUnavailableError('timeout');
    if (address.includes('Providence')) return { zip: '02903', state: 'RI' };
    if (address.includes('Anchorage')) return { zip: '99501', state: 'AK' };
    if (address.includes('Addison')) return { zip: '75001', state: 'TX' };
    return null;
  },
};

const failure = async (address: string, language: 'en' | 'es' = 'en') => {
  const error = await resolveCounty(data, { address, language }, geocoder, remMessages[language]).catch(
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
};

describe('resolveCounty', () => {
  it("places an address in its ZIP's county", async () => {
    const { fips, county } = await resolveCounty(
      data,
      { address: '1 Main St, Providence', language: 'en' },
      geocoder,
      remMessages.en,
    );
    expect([fips, county.name]).toEqual(['44007', 'Providence County']);
  });

  it('answers a geocoder outage with its own code, 503 and Retry-After, never "not found"', async () => {
    const error = await failure('1 down St');
    expect([error.statusCode, error.code, error.field, error.headers]).toEqual([
      503,
      'GEOCODER_UNAVAILABLE',
      'address',
      { 'retry-after': '30' },
    ]);
  });

  it('answers an address it cannot place 404, and one outside the contiguous US 400, naming the address', async () => {
    expect((await failure('Atlantis')).body()).toMatchObject({ statusCode: 404, field: 'address' });
    expect((await failure('1 Addison Rd')).body()).toMatchObject({ statusCode: 404, field: 'address' });
    expect((await failure('1 Anchorage Rd')).body()).toMatchObject({ statusCode: 400, field: 'address' });
  });

  it('refuses an address whose ZIP is in another state than it names, 400 naming both, en and es', async () => {
    expect((await failure('1 Main St, Providence, TX 02903')).body()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message:
        'address: ZIP code 02903 is in RI, not in TX, the state the address names; correct one of the two',
      field: 'address',
    });
    expect((await failure('1 Main St, Lubbock, Rhode Island 79401', 'es')).message).toBe(
      'address: el código postal 79401 está en TX, no en RI, el estado que indica la dirección; corrija uno de los dos',
    );
  });
});
