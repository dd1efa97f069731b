import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileReader } from '../../../ingest/connectors/file-reader.ts';
import { rewiringAmericaOpenDataParser } from '../../../ingest/parsers/rewiring-america-open-data.ts';
import type { ZodApp } from '../../../serve/route-group.ts';
import { GeocoderUnavailableError } from '../../../serve/geocoding/geocoder.ts';
import { IN_PROCESS_KEY, inProcessApp } from '../../conformance/in-process-app.ts';

const SAMPLE_DIR = fileURLToPath(new URL('../../../ingest/sample-data/incentives', import.meta.url));

// The shell and the incentives API over the sample data, with a geocoder that is down.
let app: ZodApp;
beforeAll(async () => {
  const records = await rewiringAmericaOpenDataParser.parse(createFileReader(SAMPLE_DIR));
  app = await inProcessApp(records, {
    asOfDate: '2026-06-01',
    geocoder: {
      locate: async () => {
        throw new GeocoderUnavailableError('timeout');
      },
    },
  });
});
afterAll(() => app.close());

const spec = async () => (await app.inject({ method: 'GET', url: '/spec.json' })).json();

describe('the docs plugin', () => {
  it('serves /spec.json, /docs and its files outside the API scope: no key, no limit, no snapshot tag', async () => {
    for (const url of ['/spec.json', '/docs', '/docs/json']) {
      for (const headers of [{}, { authorization: 'Bearer not-a-key-0123456789' }]) {
        const response = await app.inject({ method: 'GET', url, headers });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['x-ratelimit-limit']).toBeUndefined();
        expect(response.headers['x-snapshot-id']).toBeUndefined();
      }
    }
  });

  it('documents the routes of every scope, registered after it, and hides its own', async () => {
    const { paths } = await spec();
    expect(Object.keys(paths)).toContain('/healthz');
    expect(Object.keys(paths)).toContain('/api/v1/calculator');
    expect(Object.keys(paths).filter((path) => path.startsWith('/docs') || path === '/spec.json')).toEqual(
      [],
    );
  });

  it('documents a geocoder outage on the address routes with the body the service sends for one', async () => {
    const { paths } = await spec();
    const query = 'address=1%20Main%20St&owner_status=homeowner&household_income=60000&household_size=3';
    const outage = await app.inject({
      method: 'GET',
      url: `/api/v1/calculator?${query}`,
      headers: { authorization: `Bearer ${IN_PROCESS_KEY}` },
    });
    expect(outage.statusCode).toBe(503);
    expect(outage.headers['retry-after']).toBe('30');
    for (const path of [
      '/api/v1/calculator',
      '/api/v1/utilities',
      '/api/v1/incentives/programs',
      '/api/v1/finance/loan-programs',
    ]) {
      const documented = paths[path].get.responses['503'];
      expect(documented.description, path).toMatch(/address service is down/);
      expect(documented.content['application/json'].schema.example, path).toEqual(outage.json());
    }
    expect(paths['/api/v1/states'].get.responses['503'].description).toMatch(
      /^No data snapshot is published yet;/,
    );
  });
});
