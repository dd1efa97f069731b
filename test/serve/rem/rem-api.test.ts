import { localLake } from '../../../data-lake/lake.ts';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { savingsSchema } from '../../../schemas/rem-api.ts';
import { offlineGeocoder } from '../../../serve/geocoding/open-geocoder.ts';
import { REM_STATEMENT } from '../../../serve/rem/rem-data.ts';
import { committedModelVersions } from '../../../model/surrogate/committed-model.ts';
import { moveCurrent } from '../../../data-lake/current-pointer.ts';
import {
  FIXTURE_CLUSTERS,
  FIXTURE_STATISTICS,
  GAS_GAS_PROVIDENCE,
  GAS_PROVIDENCE,
  REM_TEST_KEY,
  programsTable,
  remServerForSpecs,
  writeTablesSnapshot,
} from '../../support/rem-lake-fixture.ts';

const REM_MODEL_VERSIONS = committedModelVersions();

const auth = { authorization: `Bearer ${REM_TEST_KEY}` };
const PROVIDENCE = '1 Main St, Providence, RI 02903';

const server = remServerForSpecs('with-rem', (lakeDir) =>
  writeTablesSnapshot(lakeDir, 'without-rem', [programsTable('without-rem')], { publish: false }),
);

const get = (url: string) => server().app.inject({ method: 'GET', url, headers: auth });
const remAddress = (query: string) => get(`/api/v1/rem/address?${query}`);

/** The statistics lines of a cluster and upgrade, as the lake holds them. */
const linesOf = (key: typeof GAS_PROVIDENCE, upgrade: string) =>
  FIXTURE_STATISTICS.filter(
    (row) =>
      row.county_fips === key.county_fips &&
      row.heating_fuel === key.heating_fuel &&
      row.water_heater_fuel === key.water_heater_fuel &&
      row.upgrade === upgrade,
  );

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

describe('GET /api/v1/rem/address', () => {
  it("answers the county cluster's precomputed statistics, in the reference's Savings shape", async () => {
    const response = await remAddress(
      `address=${encodeURIComponent(PROVIDENCE)}&upgrade=hvac__heat_pump_seer18_hspf10&heating_fuel=natural_gas`,
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(savingsSchema.safeParse(body).success).toBe(true);
    expect(body.fuel_results.natural_gas.delta.energy.mean).toEqual({ value: -2120.1235, unit: 'therm' });
    expect(body.fuel_results.electricity.upgrade.cost.percentile_80).toEqual({ value: 505.5309, unit: '$' });
    expect(body.fuel_results.total.baseline.emissions.median).toEqual({ value: 1201.0617, unit: 'kgCO2e' });
    // Every number of every line, in its place.
    for (const row of linesOf(GAS_PROVIDENCE, 'hvac__heat_pump_seer18_hspf10')) {
      const line = body.fuel_results[row.fuel][row.scenario];
      for (const measure of ['energy', 'emissions', 'cost'] as const) {
        for (const [key, column] of [
          ['mean', 'mean'],
          ['median', 'median'],
          ['percentile_20', 'p20'],
          ['percentile_80', 'p80'],
        ] as const) {
          expect(line[measure][key].value).toBe(round4(row[`${measure}_${column}`]));
        }
      }
    }
    expect(body.sampling_details).toEqual({ num_samples: 388, num_excluded_samples: 12 });
    expect(body.estimate_type).toBe('county_level');
    expect(body.model).toEqual({
      model_version: REM_MODEL_VERSIONS.model_version,
      sampler_version: REM_MODEL_VERSIONS.sampler_version,
      statement: REM_STATEMENT,
    });
    expect(body.rates.electricity).toEqual([
      { value: 0.2891, unit: '$/kWh', rate_type: 'volumetric' },
      { value: 12, unit: '$/month', rate_type: 'fixed' },
    ]);
    // Electricity on the long-run grid of Providence's Cambium region (the fixture's ISONE, 150 kg/MWh) by
    // default; fossil fuels use the national factors.
    expect(body.emissions_factors).toEqual({
      electricity: { value: 0.15, unit: 'kgCO2e/kWh', basis: 'long_run_marginal' },
      natural_gas: { value: 6.6798, unit: 'kgCO2e/therm', basis: 'combustion' },
      fuel_oil: { value: 12.3069, unit: 'kgCO2e/gallon', basis: 'combustion' },
      propane: { value: 7.3776, unit: 'kgCO2e/gallon', basis: 'combustion' },
    });
    expect(body.grid_emissions).toBe('long_run');
    expect(response.headers['x-snapshot-id']).toBe('with-rem');
    expect(response.headers.etag).toBeDefined();
  });

  it("answers on today's grid when asked: the state's eGRID average factor, computed for the request", async () => {
    const query = `address=${encodeURIComponent(PROVIDENCE)}&upgrade=hvac__heat_pump_seer18_hspf10&heating_fuel=natural_gas`;
    const today = await remAddress(`${query}&grid_emissions=current_average`);
    expect(today.statusCode).toBe(200);
    const body = today.json();
    expect(savingsSchema.safeParse(body).success).toBe(true);
    expect(body.grid_emissions).toBe('current_average');
    // Rhode Island's own eGRID subregion average wins over the national one.
    expect(body.emissions_factors.electricity).toEqual({
      value: 0.2764,
      unit: 'kgCO2e/kWh',
      basis: 'average',
    });
    // The precompute is the long-run grid's, so this cluster is computed by the model, for the same county.
    const longRun = (await remAddress(query)).json();
    expect(body.fuel_results.natural_gas.delta.energy.mean).not.toEqual(
      longRun.fuel_results.natural_gas.delta.energy.mean,
    );
    expect(body.estimate_type).toBe('county_level');
  });

  it('refuses a grid basis it does not know, naming grid_emissions', async () => {
    const response = await remAddress(
      `address=${encodeURIComponent(PROVIDENCE)}&upgrade=baseline&heating_fuel=natural_gas&grid_emissions=marginal`,
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe('grid_emissions');
  });

  it('answers baseline with upgrade and delta null, and units per fuel', async () => {
    const body = (
      await remAddress(`address=${encodeURIComponent(PROVIDENCE)}&upgrade=baseline&heating_fuel=natural_gas`)
    ).json();
    for (const fuel of ['electricity', 'natural_gas', 'fuel_oil', 'propane', 'total']) {
      expect(body.fuel_results[fuel].upgrade).toBeNull();
      expect(body.fuel_results[fuel].delta).toBeNull();
    }
    expect(body.fuel_results.fuel_oil.baseline.energy.mean).toEqual({ value: 1200.1235, unit: 'gallon' });
    expect(body.fuel_results.electricity.baseline.energy.mean.unit).toBe('kWh');
    expect(body.sampling_details).toEqual({ num_samples: 400, num_excluded_samples: 0 });
  });

  it('uses the water-heater fuel to pick the cluster, and requires it for the water-heater upgrade', async () => {
    const withFuel = await remAddress(
      `address=${encodeURIComponent(PROVIDENCE)}&upgrade=water_heater__heat_pump_uef3.35&heating_fuel=natural_gas&water_heater_fuel=natural_gas`,
    );
    expect(withFuel.statusCode).toBe(200);
    expect(withFuel.json().fuel_results.natural_gas.upgrade.energy.mean.value).toBe(
      round4(linesOf(GAS_GAS_PROVIDENCE, 'water_heater__heat_pump_uef3.35')[4]!.energy_mean),
    );
    const without = await remAddress(
      `address=${encodeURIComponent(PROVIDENCE)}&upgrade=water_heater__heat_pump_uef3.35&heating_fuel=natural_gas`,
    );
    expect(without.statusCode).toBe(400);
    expect(without.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'water_heater_fuel: is required for the water-heater upgrade',
      field: 'water_heater_fuel',
    });
    const spanish = await remAddress(
      `address=${encodeURIComponent(PROVIDENCE)}&upgrade=water_heater__heat_pump_uef3.35&heating_fuel=natural_gas&language=es`,
    );
    expect(spanish.json().message).toBe(
      'water_heater_fuel: es obligatorio para la mejora del calentador de agua',
    );
  });

  it('says building_not_supported for fuels the county makes implausible, naming the field', async () => {
    const response = await remAddress(
      'address=' +
        encodeURIComponent('1 Broadway, Lubbock, TX 79401') +
        '&upgrade=baseline&heating_fuel=propane&water_heater_fuel=natural_gas',
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message:
        'building_not_supported: propane heating with a natural gas water heater is too rare in Lubbock ' +
        'County, TX to estimate; omit water_heater_fuel to let the model draw it',
      field: 'water_heater_fuel',
    });
    const withoutWaterHeater = await remAddress(
      `address=${encodeURIComponent('1 Broadway, Lubbock, TX 79401')}&upgrade=baseline&heating_fuel=propane`,
    );
    expect(withoutWaterHeater.statusCode).toBe(200);
    const oil = await remAddress(
      `address=${encodeURIComponent('1 Broadway, Lubbock, TX 79401')}&upgrade=baseline&heating_fuel=fuel_oil`,
    );
    expect(oil.json()).toMatchObject({ statusCode: 400, field: 'heating_fuel' });
    expect(oil.json().message).toMatch(/^building_not_supported: fuel oil heating is too rare in Lubbock/);
  });

  it("computes a cluster the snapshot did not precompute, by the stage's recipe, and keeps it", async () => {
    const lubbock = (upgrade: string) =>
      remAddress(
        `address=${encodeURIComponent('1 Broadway, Lubbock, TX 79401')}&upgrade=${upgrade}&heating_fuel=electricity`,
      );
    // The fixture snapshot precomputed no Lubbock cluster with electric heating.
    expect(FIXTURE_CLUSTERS.some((c) => c.cluster_id === '48303|electricity|-')).toBe(false);
    const response = await lubbock('baseline');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(savingsSchema.safeParse(body).success).toBe(true);
    expect(body.estimate_type).toBe('county_level');
    // REM_SAMPLES (400 by default) homes, as the precompute draws.
    expect(body.sampling_details).toEqual({ num_samples: 400, num_excluded_samples: 0 });
    expect(body.fuel_results.electricity.baseline.energy.mean.value).toBeGreaterThan(5_000);
    expect(body.rates.fuel_oil).toEqual([
      { value: 3.7105, unit: '$/gallon', rate_type: 'volumetric' },
      { value: 0, unit: '$/month', rate_type: 'fixed' },
    ]);
    // Another upgrade of the same cluster comes from the kept cluster: the same homes, so the same baseline.
    const heatPump = (await lubbock('hvac__heat_pump_seer18_hspf10')).json();
    expect(heatPump.fuel_results.electricity.baseline).toEqual(body.fuel_results.electricity.baseline);
    expect(heatPump.fuel_results.electricity.delta.energy.mean.value).toBeLessThan(0);
  });

  it('names an answer by its county cluster: the addresses of one county share one kept answer and one ETag', async () => {
    const locate = vi.spyOn(offlineGeocoder, 'locate');
    try {
      const ask = (address: string, waterHeaterFuel = 'natural_gas') =>
        remAddress(
          `address=${encodeURIComponent(address)}&upgrade=baseline&heating_fuel=natural_gas` +
            `&water_heater_fuel=${waterHeaterFuel}`,
        );
      const first = await ask('2 Main St, Providence, RI 02903');
      // Kept from its name's second request on, whichever address asked it first.
      const second = await ask('40 Benefit Street, Providence, Rhode Island 02903');
      const locatedBefore = locate.mock.calls.length;
      const third = await ask('7 Elm St, Apt 2, Providence, RI 02903');
      expect(locate.mock.calls.length).toBe(locatedBefore);
      const answers = [first, second, third];
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      expect(new Set(answers.map((r) => r.body)).size).toBe(1);
      expect(new Set(answers.map((r) => r.headers.etag)).size).toBe(1);
      // Another cluster of the same county (a water heater on another fuel) is another answer.
      const otherCluster = await ask('2 Main St, Providence, RI 02903', 'electricity');
      expect(otherCluster.statusCode).toBe(200);
      expect(otherCluster.headers.etag).not.toBe(first.headers.etag);
      // A refused request is not named: its own words, whatever was kept for the county.
      const conflict = await ask('2 Main St, Lubbock, TX 02903');
      expect(conflict.statusCode).toBe(400);
      expect(conflict.json().field).toBe('address');
    } finally {
      locate.mockRestore();
    }
  });

  it('answers 400 naming upgrade when the upgrade applies to none of the sample homes', async () => {
    for (const upgrade of ['weatherization__insulation_air_duct_sealing', 'hvac__heat_pump_seer24_hspf13']) {
      const response = await remAddress(
        `address=${encodeURIComponent(PROVIDENCE)}&upgrade=${upgrade}&heating_fuel=natural_gas`,
      );
      expect(response.json()).toEqual({
        statusCode: 400,
        error: 'Bad Request',
        message: 'upgrade: applies to none of the sample homes for Providence County, RI with these fuels',
        field: 'upgrade',
      });
    }
  });

  it('places only contiguous-US addresses: 400 outside, 404 where no county is known', async () => {
    const alaska = await remAddress(
      `address=${encodeURIComponent('1 Main St, Anchorage, AK 99501')}&upgrade=baseline&heating_fuel=natural_gas`,
    );
    expect(alaska.statusCode).toBe(400);
    expect(alaska.json()).toMatchObject({
      field: 'address',
      message: 'address: is in AK; REM estimates cover the contiguous United States and DC only',
    });
    const unknownZip = await remAddress(
      `address=${encodeURIComponent('1 Main St, Dayton, OH 45402')}&upgrade=baseline&heating_fuel=natural_gas`,
    );
    expect(unknownZip.statusCode).toBe(404);
    expect(unknownZip.json()).toMatchObject({
      field: 'address',
      message: 'address: no county is known for ZIP code 45402',
    });
    const countyMissing = await remAddress(
      `address=${encodeURIComponent('1 Main St, Addison, TX 75001')}&upgrade=baseline&heating_fuel=natural_gas`,
    );
    expect(countyMissing.statusCode).toBe(404);
    const noZip = await remAddress(`address=somewhere&upgrade=baseline&heating_fuel=natural_gas&language=es`);
    expect(noZip.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'address: no se pudo ubicar; indique una dirección con su código postal',
      field: 'address',
    });
  });

  it('refuses an address whose ZIP contradicts its state, 400 naming both, as the incentives routes do', async () => {
    const query = `address=${encodeURIComponent('1 Main St, Lubbock, TX 02903')}&upgrade=baseline&heating_fuel=natural_gas`;
    expect((await remAddress(query)).json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message:
        'address: ZIP code 02903 is in RI, not in TX, the state the address names; correct one of the two',
      field: 'address',
    });
    expect((await remAddress(`${query}&language=es`)).json().message).toBe(
      'address: el código postal 02903 está en RI, no en TX, el estado que indica la dirección; corrija uno de los dos',
    );
  });

  it('validates every parameter with a 400 naming it', async () => {
    const cases: [string, string, string][] = [
      ['upgrade=baseline&heating_fuel=natural_gas', 'address', 'address: is required'],
      [
        `address=${encodeURIComponent(PROVIDENCE)}&heating_fuel=natural_gas`,
        'upgrade',
        'upgrade: is required',
      ],
      [`address=${encodeURIComponent(PROVIDENCE)}&upgrade=solar&heating_fuel=natural_gas`, 'upgrade', ''],
      [`address=${encodeURIComponent(PROVIDENCE)}&upgrade=baseline&heating_fuel=wood`, 'heating_fuel', ''],
      [
        `address=${encodeURIComponent(PROVIDENCE)}&upgrade=baseline&heating_fuel=propane&water_heater_fuel=solar`,
        'water_heater_fuel',
        '',
      ],
      [`address=${'x'.repeat(501)}&upgrade=baseline&heating_fuel=propane`, 'address', ''],
    ];
    for (const [query, field, message] of cases) {
      const response = await remAddress(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().field).toBe(field);
      if (message) expect(response.json().message).toBe(message);
    }
  });
});

describe('GET /api/v1/rem/server_version', () => {
  it('returns the model, sampler and code versions', async () => {
    const response = await get('/api/v1/rem/server_version');
    expect(response.json()).toEqual({
      model_version: REM_MODEL_VERSIONS.model_version,
      sampler_version: REM_MODEL_VERSIONS.sampler_version,
      code_version: 'fixture-code',
    });
  });
});

describe('a snapshot without the REM tables', () => {
  it('keeps the other routes serving while the REM routes answer 503, and the cache files live per snapshot', async () => {
    await moveCurrent(localLake(server().lakeDir), 'without-rem');
    await server().holder.refresh();
    const programs = await get('/v1/programs');
    expect(programs.statusCode).toBe(200);
    expect(programs.json().snapshot).toBe('without-rem');
    const rem = await remAddress(
      `address=${encodeURIComponent(PROVIDENCE)}&upgrade=baseline&heating_fuel=natural_gas`,
    );
    expect(rem.statusCode).toBe(503);
    expect(rem.headers['retry-after']).toBe('60');
    expect(rem.json()).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'REM estimates are not in the data being served yet; retry later',
    });
    expect((await get('/api/v1/rem/server_version')).statusCode).toBe(200);
    expect(await readdir(path.join(server().lakeDir, 'cache', 'serving'))).toEqual(['with-rem']);

    await moveCurrent(localLake(server().lakeDir), 'with-rem');
    await server().holder.refresh();
    const again = await remAddress(
      `address=${encodeURIComponent(PROVIDENCE)}&upgrade=baseline&heating_fuel=natural_gas`,
    );
    expect(again.statusCode).toBe(200);
  });
});
