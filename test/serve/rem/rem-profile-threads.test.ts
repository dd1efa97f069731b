import { describe, expect, it } from 'vitest';
import { remProfileBodySchema } from '../../../schemas/rem-api.ts';
import type { RouteGroup } from '../../../serve/route-group.ts';
import { committedSurrogate } from '../../../model/surrogate/committed-surrogate.ts';
import { createRemApi } from '../../../serve/rem/rem-api.ts';
import { placeKey, type RemData, type RemSnapshot } from '../../../serve/rem/rem-data.ts';
import { countyFipsOf, profileEstimateType } from '../../../serve/rem/profile-features.ts';
import { computeProfile } from '../../../simulate/on-demand/profile-homes.ts';
import type { ThreadedRemModelOptions } from '../../../simulate/on-demand/threaded-rem-model.ts';
import { answerOfLines } from '../../../serve/rem/cluster-statistics-store.ts';
import { savingsBody } from '../../../serve/rem/savings-body.ts';
import {
  FIXTURE_RATES,
  REM_TEST_KEY,
  programsTable,
  remFixtureTables,
  writeTablesSnapshot,
} from '../../support/rem-lake-fixture.ts';
import { lakeServerForSpecs, type LakeServer } from '../../support/serve-lake-fixture.ts';
import { countyEmissionFactors, type EnergyRate } from '../../../schemas/rem-data.ts';
import { specRemModel } from '../../support/rem-model.ts';

/*
 * /rem/profile is computed on the REM model's threads (REM_MODEL_THREADS): the answers must be the bytes the
 * same computation gives on the calling thread, from the snapshot the request was pinned to; a thread's
 * failure must be a clean error; a full queue a 503.
 */

const auth = { authorization: `Bearer ${REM_TEST_KEY}` };
const remServer = (id: string, threads: ThreadedRemModelOptions) =>
  lakeServerForSpecs(id, {
    tables: () => remFixtureTables(),
    routeGroups: () => [createRemApi({ model: specRemModel(threads) })] as RouteGroup<unknown>[],
    key: REM_TEST_KEY,
  });

const post = (server: LakeServer, body: unknown) =>
  server.app.inject({ method: 'POST', url: '/api/v1/rem/profile', headers: auth, payload: body as object });

/** The REM data of the snapshot the server serves now. */
const servedData = (server: LakeServer): RemData =>
  (server.holder.current()!.data.get('rem') as RemSnapshot).data!;

/** The answer computed here, on the calling thread, from every rate row and the county's factors of `data`. */
async function inProcessBody(data: RemData, body: unknown): Promise<string> {
  const parsed = remProfileBodySchema.parse(body);
  const county = data.counties.get(countyFipsOf(parsed.building_profile.county))!;
  const factors = countyEmissionFactors(county, parsed.grid_emissions, data.factors, data.gridFactors);
  const result = await computeProfile(
    { body: parsed, county, rates: data.rates, factors },
    await committedSurrogate(),
  );
  if (!result.supported) throw new Error(`no answer in process: ${JSON.stringify(result)}`);
  return savingsBody(answerOfLines(result.lines), {
    ratesAndFactorsJson: data.ratesAndFactorsJson.get(placeKey(county, parsed.grid_emissions))!,
    modelJson: data.modelJson,
    estimateType: profileEstimateType(parsed.building_profile.building_features),
  }).toString('utf8');
}

const PROFILES = [
  {
    upgrade: 'hvac__heat_pump_seer18_hspf10',
    heating_fuel: 'natural_gas',
    building_profile: {
      county: 'G4400070',
      building_features: { geometry_floor_area: 1800, hvac_heating_type: ['Ducted Heating'] },
    },
  },
  {
    upgrade: 'water_heater__heat_pump_uef3.35',
    heating_fuel: 'natural_gas',
    water_heater_fuel: 'natural_gas',
    language: 'es',
    building_profile: { county: '44007', building_features: { bedrooms: 3, vintage: 1955 } },
  },
  {
    upgrade: 'hvac__heat_pump_seer24_hspf13',
    heating_fuel: 'propane',
    building_profile: {
      county: 'G4803030',
      building_features: { geometry_stories: 1, hvac_cooling_type: ['Central AC', 'Room AC'] },
    },
  },
  {
    upgrade: 'combination__all_electric__hvac_seer24_hspf13__weatherization',
    heating_fuel: 'electricity',
    building_profile: { county: '48303', building_features: {} },
  },
];

describe('POST /api/v1/rem/profile on worker threads', () => {
  const server = remServer('profile-threads', { threads: 2, maxQueued: 16 });

  it('answers the same bytes as the computation on the calling thread, for profiles in two states', async () => {
    const responses = await Promise.all(PROFILES.map((body) => post(server(), body)));
    for (const [i, response] of responses.entries()) {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.body).toBe(await inProcessBody(servedData(server()), PROFILES[i]));
    }
  }, 60_000);

  it('answers from the snapshot the request was pinned to after a swap, and a thread error is a clean 500', async () => {
    const before = (await post(server(), PROFILES[0])).json();
    // A new snapshot: Rhode Island's gas costs twice as much, and Texas has no fuel-oil rate (a broken
    // table), so pricing a Texas profile throws inside the thread.
    const rates: EnergyRate[] = FIXTURE_RATES.filter((r) => !(r.state === 'TX' && r.fuel === 'fuel_oil')).map(
      (r) =>
        r.state === 'RI' && r.fuel === 'natural_gas' ? { ...r, volumetric_rate: 2 * r.volumetric_rate } : r,
    );
    const tables = remFixtureTables().map((t) => (t.name === 'rem_energy_rates' ? { ...t, rows: rates } : t));
    await writeTablesSnapshot(server().lakeDir, 'dearer-gas', [programsTable('dearer-gas'), ...tables], {
      publish: true,
    });
    await server().holder.refresh();
    expect(server().holder.current()!.id).toBe('dearer-gas');

    const after = await post(server(), PROFILES[0]);
    expect(after.statusCode).toBe(200);
    expect(after.body).toBe(await inProcessBody(servedData(server()), PROFILES[0]));
    expect(after.json().rates.natural_gas[0].value).toBe(2 * before.rates.natural_gas[0].value);
    expect(after.json().fuel_results.natural_gas.baseline.cost.mean.value).toBeGreaterThan(
      before.fuel_results.natural_gas.baseline.cost.mean.value,
    );

    const failed = await post(server(), PROFILES[2]);
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: 'Internal server error',
    });
    // The thread lives on: the next profiles are answered.
    const responses = await Promise.all([post(server(), PROFILES[0]), post(server(), PROFILES[1])]);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
  }, 60_000);
});

describe('POST /api/v1/rem/profile when every thread is busy', () => {
  const server = remServer('profile-busy', { threads: 1, maxQueued: 0 });

  it('answers 503 with Retry-After in the error shape, in the language asked, beyond the queue', async () => {
    const spanish = { ...PROFILES[0], language: 'es' };
    const responses = await Promise.all([post(server(), PROFILES[0]), post(server(), spanish)]);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 503]);
    expect(responses[1]!.headers['retry-after']).toBe('1');
    expect(responses[1]!.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message:
        'Se están calculando demasiadas estimaciones de viviendas no precalculadas; vuelva a intentarlo en un segundo',
    });
    const english = await Promise.all([post(server(), PROFILES[0]), post(server(), PROFILES[0])]);
    expect(english[1]!.json().message).toBe(
      'Too many estimates are being computed for homes not precomputed; retry in a second',
    );
    // Once the thread is free, the next profile is answered.
    expect((await post(server(), PROFILES[0])).statusCode).toBe(200);
  }, 60_000);
});
