import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodApp } from '../../../serve/route-group.ts';
import type { Geocoder } from '../../../serve/geocoding/geocoder.ts';
import { IN_PROCESS_KEY, inProcessApp } from '../../conformance/in-process-app.ts';
import { fixtureRecords } from '../../support/incentives/fixture-records.ts';

// An external geocoder whose answer for the same address changes, as a real one's can between requests.
let placedAt = { zip: '02903', state: 'RI' };
const lookups: string[] = [];
const externalGeocoder: Geocoder = {
  locate: async (address) => {
    lookups.push(address);
    return placedAt;
  },
};

let app: ZodApp;
beforeAll(async () => {
  app = await inProcessApp(fixtureRecords(), { asOfDate: '2025-01-25', geocoder: externalGeocoder });
});
afterAll(() => app.close());

const get = (url: string) =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${IN_PROCESS_KEY}` } });

describe('incentives answers and the response cache', () => {
  it('asks an external geocoder again for every address request, so its current answer is used', async () => {
    const url = `/api/v1/utilities?address=${encodeURIComponent('1 Main St, Somewhere, RI')}`;
    placedAt = { zip: '02903', state: 'RI' };
    const first = await get(url);
    placedAt = { zip: '02814', state: 'RI' };
    const second = await get(url);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(lookups).toEqual(['1 Main St, Somewhere, RI', '1 Main St, Somewhere, RI']);
    expect(second.body).not.toBe(first.body);
  });

  it('answers a repeated ZIP request with the identical bytes and tags', async () => {
    const url =
      '/api/v1/calculator?zip=02903&owner_status=homeowner&household_income=60000&household_size=4' +
      '&tax_filing=joint&utility=ri-rhode-island-energy';
    const first = await get(url);
    const second = await get(url);
    expect(second.statusCode).toBe(200);
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});
