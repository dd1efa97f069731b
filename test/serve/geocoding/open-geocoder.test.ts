import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../lib/config.ts';
import { offlineGeocoder, openGeocoder } from '../../../serve/geocoding/open-geocoder.ts';
import {
  censusNoMatchAnswer,
  startCensusGeocoderStub,
  type CensusGeocoderStub,
} from '../../support/census-geocoder-stub.ts';

let stub: CensusGeocoderStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

describe('openGeocoder', () => {
  it('is the offline parser by default, so nothing leaves the machine', async () => {
    const geocoder = openGeocoder(loadConfig({}));
    expect(geocoder).toBe(offlineGeocoder);
    expect(await geocoder.locate('1 Main St, Providence, RI 02903')).toEqual({ zip: '02903', state: 'RI' });
  });

  it('is the Census geocoder at GEOCODER_URL when GEOCODER=census', async () => {
    stub = await startCensusGeocoderStub(() => censusNoMatchAnswer);
    const geocoder = openGeocoder(
      loadConfig({ GEOCODER: 'census', GEOCODER_URL: stub.url, GEOCODER_TIMEOUT_MS: '1000' }),
    );
    expect(await geocoder.locate('1 Main St, Providence, RI 02903')).toBeNull();
    expect(stub.requests.map((r) => r.path)).toEqual(['/geocoder/geographies/onelineaddress']);
  });
});
