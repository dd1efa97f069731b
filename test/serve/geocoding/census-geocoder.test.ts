import { afterEach, describe, expect, it } from 'vitest';
import { createCensusGeocoder, MAX_ADDRESS_LENGTH } from '../../../serve/geocoding/census-geocoder.ts';
import { GeocoderUnavailableError } from '../../../serve/geocoding/geocoder.ts';
import {
  censusMatchAnswer,
  censusNoMatchAnswer,
  startCensusGeocoderStub,
  type CensusGeocoderStub,
  type StubAnswer,
} from '../../support/census-geocoder-stub.ts';

const BOSTON = censusMatchAnswer({
  matchedAddress: '77 MASSACHUSETTS AVE, BOSTON, MA, 02116',
  lon: -71.07612,
  lat: 42.34886,
  zip: '02116',
  state: 'MA',
  stateFips: '25',
  countyFips3: '025',
  tract: '010600',
});

let stub: CensusGeocoderStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

async function geocoderAnswering(answer: (query: URLSearchParams) => StubAnswer, timeoutMs = 2000) {
  stub = await startCensusGeocoderStub(answer);
  return createCensusGeocoder({ baseUrl: stub.url, timeoutMs });
}

describe('the Census Bureau geocoder adapter', () => {
  it('asks geographies/onelineaddress for the current benchmark and vintage, in JSON', async () => {
    const geocoder = await geocoderAnswering(() => BOSTON);
    await geocoder.locate('  77 Massachusetts Ave,\n Boston, MA 02116 ');
    expect(stub!.requests).toHaveLength(1);
    const { path, query } = stub!.requests[0]!;
    expect(path).toBe('/geocoder/geographies/onelineaddress');
    expect(Object.fromEntries(query)).toEqual({
      address: '77 Massachusetts Ave, Boston, MA 02116',
      benchmark: 'Public_AR_Current',
      vintage: 'Current_Current',
      format: 'json',
    });
  });

  it('turns the first match into ZIP, state, county, tract, coordinates and matched address', async () => {
    const geocoder = await geocoderAnswering(() => BOSTON);
    expect(await geocoder.locate('77 Massachusetts Ave, Boston, MA 02116')).toEqual({
      zip: '02116',
      state: 'MA',
      countyFips: '25025',
      tractGeoid: '25025010600',
      lat: 42.34886,
      lon: -71.07612,
      matchedAddress: '77 MASSACHUSETTS AVE, BOSTON, MA, 02116',
    });
  });

  it('tolerates a base URL with a trailing slash', async () => {
    stub = await startCensusGeocoderStub(() => BOSTON);
    const geocoder = createCensusGeocoder({ baseUrl: `${stub.url}/`, timeoutMs: 2000 });
    expect(await geocoder.locate('77 Massachusetts Ave, Boston, MA 02116')).toMatchObject({ zip: '02116' });
    expect(stub.requests[0]!.path).toBe('/geocoder/geographies/onelineaddress');
  });

  it('answers null when nothing matches', async () => {
    const geocoder = await geocoderAnswering(() => censusNoMatchAnswer);
    expect(await geocoder.locate('1 Nowhere Rd, Atlantis, ZZ 99999')).toBeNull();
  });

  it('answers null for a match without a usable ZIP, without asking for a blank address', async () => {
    const noZip = structuredClone(BOSTON) as {
      json: { result: { addressMatches: { addressComponents: { zip: string } }[] } };
    };
    noZip.json.result.addressMatches[0]!.addressComponents.zip = '';
    const geocoder = await geocoderAnswering(() => noZip as StubAnswer);
    expect(await geocoder.locate('77 Massachusetts Ave, Boston, MA')).toBeNull();
    expect(await geocoder.locate('   ')).toBeNull();
    expect(stub!.requests).toHaveLength(1);
  });

  it('answers null for text too long to be an address, without asking', async () => {
    const geocoder = await geocoderAnswering(() => BOSTON);
    expect(
      await geocoder.locate(`77 Massachusetts Ave ${'x'.repeat(MAX_ADDRESS_LENGTH)}, Boston, MA`),
    ).toBeNull();
    expect(stub!.requests).toHaveLength(0);
  });

  it('takes the county from the tract when the county layer’s GEOID is not a county FIPS, and a lower-case state', async () => {
    type Geographies = Record<string, { GEOID: string }[]>;
    const odd = structuredClone(BOSTON) as {
      json: {
        result: {
          addressMatches: { addressComponents: { state: string }; geographies: Geographies }[];
        };
      };
    };
    const match = odd.json.result.addressMatches[0]!;
    match.addressComponents.state = 'ma';
    match.geographies.Counties![0]!.GEOID = '25-025';
    const geocoder = await geocoderAnswering(() => odd as StubAnswer);
    expect(await geocoder.locate('77 Massachusetts Ave, Boston, MA 02116')).toMatchObject({
      state: 'MA',
      countyFips: '25025',
      tractGeoid: '25025010600',
    });
    // A tract GEOID of the wrong length is no tract: the answer keeps what else it has.
    match.geographies['Census Tracts']![0]!.GEOID = '2502501060';
    match.geographies.Counties![0]!.GEOID = '25025';
    const located = await geocoder.locate('77 Massachusetts Ave, Boston, MA 02116');
    expect(located).toMatchObject({ zip: '02116', state: 'MA', countyFips: '25025' });
    expect(located).not.toHaveProperty('tractGeoid');
  });

  it('keeps ZIP and state when the answer carries no geographies', async () => {
    const bare = structuredClone(BOSTON) as { json: { result: { addressMatches: object[] } } };
    bare.json.result.addressMatches = [
      {
        matchedAddress: '1 MAIN ST, PROVIDENCE, RI, 02903',
        addressComponents: { zip: '02903', state: 'RI' },
      },
    ];
    const geocoder = await geocoderAnswering(() => bare as StubAnswer);
    expect(await geocoder.locate('1 Main St, Providence, RI')).toEqual({
      zip: '02903',
      state: 'RI',
      matchedAddress: '1 MAIN ST, PROVIDENCE, RI, 02903',
    });
  });

  it.each([
    ['a 500', { status: 500, text: 'Internal Server Error' }, /HTTP 500/],
    ['a 503', { status: 503, text: 'Service Unavailable' }, /HTTP 503/],
    ['a 429', { status: 429, text: 'Too Many Requests' }, /HTTP 429/],
    ['invalid JSON', { status: 200, text: '<html>maintenance</html>', contentType: 'text/html' }, /JSON/],
    ['an unexpected shape', { status: 200, json: { errors: ['unexpected'] } }, /unexpected shape/],
  ] as const)('throws GeocoderUnavailableError for %s', async (_case, answer, message) => {
    const geocoder = await geocoderAnswering(() => answer);
    const failure = geocoder.locate('77 Massachusetts Ave, Boston, MA 02116');
    await expect(failure).rejects.toBeInstanceOf(GeocoderUnavailableError);
    await expect(failure).rejects.toThrow(message);
  });

  it('gives up after GEOCODER_TIMEOUT_MS when the geocoder hangs', async () => {
    const geocoder = await geocoderAnswering(() => 'hang', 200);
    const failure = geocoder.locate('77 Massachusetts Ave, Boston, MA 02116');
    await expect(failure).rejects.toBeInstanceOf(GeocoderUnavailableError);
    await expect(failure).rejects.toThrow('did not answer within 200 ms');
  });

  it('throws GeocoderUnavailableError when nothing listens at the URL', async () => {
    stub = await startCensusGeocoderStub(() => BOSTON);
    const url = stub.url;
    await stub.close();
    stub = undefined;
    const geocoder = createCensusGeocoder({ baseUrl: url, timeoutMs: 2000 });
    const failure = geocoder.locate('77 Massachusetts Ave, Boston, MA 02116');
    await expect(failure).rejects.toBeInstanceOf(GeocoderUnavailableError);
    await expect(failure).rejects.toThrow(/could not be reached \(ECONNREFUSED\)/);
  });
});
