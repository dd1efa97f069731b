import { describe, expect, it } from 'vitest';
import {
  healthImpactsRequestExample,
  healthImpactsResponseExample,
} from '../../../schemas/health-api-examples.ts';
import {
  HEALTH_METRICS,
  healthImpactsRequestSchema,
  healthImpactsResponseSchema,
  type HealthMetric,
} from '../../../schemas/health-api.ts';
import { VALUE_OF_STATISTICAL_LIFE, type HealthImpactCell } from '../../../schemas/health-data.ts';
import { HEALTH_STATEMENT } from '../../../schemas/health-model.ts';
import type { RouteGroup } from '../../../serve/route-group.ts';
import { createHealthApi } from '../../../serve/health/health-api.ts';
import {
  HEALTH_TEST_KEY,
  healthFixtureCells,
  healthServerForSpecs,
} from '../../support/health-lake-fixture.ts';
import { lakeServerForSpecs } from '../../support/serve-lake-fixture.ts';

const URL = '/api/v2/etools/health-impacts';
const auth = { authorization: `Bearer ${HEALTH_TEST_KEY}` };
const server = healthServerForSpecs('with-health');
/** The cells of the default (long-run) grid basis, which answers without grid_emissions are sums of. */
const cells = healthFixtureCells('long_run');

const post = (body: unknown, headers: Record<string, string> = {}) =>
  server().app.inject({
    method: 'POST',
    url: URL,
    headers: { ...auth, 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

const HP = 'hvac__heat_pump_seer18_hspf10';
const ALL_ELECTRIC = 'combination__all_electric__hvac_seer24_hspf13__weatherization';
const valid = { metrics: ['ammonia'], upgrade: [HP] };
const round2 = (value: number) => Math.round(value * 100) / 100;
const BY_BIN = 'house_size_square_feet_binned';
const METRICS = Object.keys(HEALTH_METRICS) as HealthMetric[];

const FEW_EN =
  'Fewer than 5,000 households: small totals rest on survey estimates of few homes and are uncertain; read with caution.';
const MULTI_FAMILY_EN =
  'Rows include multi-family households (buildings of 2 or more units), whose fuel change is approximated from the county’s single-family homes scaled by RECS 2015 apartment-to-house energy use; group_by housing_type shows them apart.';
const FEW_ES =
  'Menos de 5000 hogares: los totales pequeños se basan en estimaciones de encuesta de pocas viviendas y son inciertos; léalos con cautela.';
const MULTI_FAMILY_ES =
  'Las filas incluyen hogares multifamiliares (edificios de 2 o más unidades), cuyo cambio de combustible se aproxima a partir de las viviendas unifamiliares del condado, escalado por el consumo de apartamentos frente a casas (RECS 2015); group_by housing_type los muestra aparte.';

/** The numeric columns of an answer's row. */
interface AnswerRow {
  metric: string;
  number_of_households: number;
  impact: number;
  impact_low?: number;
}

/** What a row should say: the lake's cells that match, summed, as the reference's columns. */
function expectedRow(
  match: (cell: HealthImpactCell) => boolean,
  metric: HealthMetric,
  columns: Record<string, string>,
  of: readonly HealthImpactCell[] = cells,
) {
  const matching = of.filter(match);
  const sum = (column: keyof HealthImpactCell) =>
    matching.reduce((total, cell) => total + (cell[column] as number), 0);
  const households = sum('households');
  const { column, low, units } = HEALTH_METRICS[metric];
  return {
    ...columns,
    number_of_households: households,
    metric,
    impact: round2(sum(column)),
    ...(low === null ? {} : { impact_low: round2(sum(low)) }),
    units,
    warnings: households < 5000 ? FEW_EN : null,
  };
}

describe('POST /api/v2/etools/health-impacts', () => {
  it("answers the reference notebook's request with the documented example, exactly", async () => {
    expect(healthImpactsRequestSchema.safeParse(healthImpactsRequestExample).success).toBe(true);
    expect(healthImpactsResponseSchema.parse(healthImpactsResponseExample)).toEqual(
      healthImpactsResponseExample,
    );
    const response = await post(healthImpactsRequestExample);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(healthImpactsResponseExample);
    expect(response.json().model.statement).toBe(HEALTH_STATEMENT);
    // Columns in the reference's order.
    expect(Object.keys(response.json().data[0])).toEqual([
      'state_abbreviation',
      'county_fips',
      'county_name',
      'in_sqft_bin',
      'number_of_households',
      'metric',
      'impact',
      'impact_low',
      'units',
      'warnings',
    ]);
  });

  it("answers on today's grid when asked: its own power-plant tonnes, the same households, and says so", async () => {
    const metrics = ['sulfur_dioxide', 'avoided_premature_mortality_incidence'] as const;
    const today = await post({
      metrics,
      upgrade: [HP],
      state_fips: ['44'],
      grid_emissions: 'current_average',
    });
    expect(today.statusCode).toBe(200);
    const todays = healthFixtureCells('current_average');
    expect(today.json().data).toEqual(
      metrics.map((metric) =>
        expectedRow(
          (c) => c.state === 'RI' && c.upgrade === HP,
          metric,
          { state_abbreviation: 'RI' },
          todays,
        ),
      ),
    );
    expect(today.json().model.grid_emissions).toBe('current_average');
    // The default is the long-run grid, whose added generation emits less SO2: a body without the field is
    // answered (and kept in the cache) apart from one asking for today's grid.
    const longRun = await post({ metrics, upgrade: [HP], state_fips: ['44'] });
    expect(longRun.json().model.grid_emissions).toBe('long_run');
    expect(longRun.json().data[0].impact).toBeGreaterThan(today.json().data[0].impact);
    expect(longRun.headers.etag).not.toBe(today.headers.etag);
  });

  it('refuses a grid basis it does not know, naming grid_emissions', async () => {
    const response = await post({ ...valid, grid_emissions: 'marginal' });
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe('grid_emissions');
  });

  it('answers every state the data has when state_fips is omitted: one row per state and metric', async () => {
    const response = await post({
      metrics: ['sulfur_dioxide', 'avoided_premature_mortality_incidence'],
      upgrade: [HP],
    });
    expect(response.statusCode).toBe(200);
    const expected = ['RI', 'TX', 'WI'].flatMap((state) =>
      (['sulfur_dioxide', 'avoided_premature_mortality_incidence'] as const).map((metric) =>
        expectedRow((c) => c.state === state && c.upgrade === HP, metric, { state_abbreviation: state }),
      ),
    );
    expect(response.json().data).toEqual(expected);
    // Rhode Island's rows, in numbers: SO2 increases (negative), deaths are avoided (the low estimate
    // fewer); its households include multi-family ones.
    expect(response.json().data.slice(0, 2)).toEqual([
      {
        state_abbreviation: 'RI',
        number_of_households: 301_162,
        metric: 'sulfur_dioxide',
        impact: -142_372.25,
        units: 'kg_per_year',
        warnings: null,
      },
      {
        state_abbreviation: 'RI',
        number_of_households: 301_162,
        metric: 'avoided_premature_mortality_incidence',
        impact: 2.74,
        impact_low: 1.16,
        units: 'deaths_per_year',
        warnings: null,
      },
    ]);
    // Its households include multi-family ones: the answer says once that they are approximated.
    expect(response.json().warnings).toEqual([MULTI_FAMILY_EN]);
    expect(response.json().model.sources).toEqual([
      { name: 'damage-factors', kind: 'health-damage-factors', version: '2024.1' },
      { name: 'emission-factors', kind: 'rem-emission-factors', version: '2023.2' },
    ]);
  });

  it('orders states and counties by FIPS whatever order they are asked in, metrics as asked', async () => {
    const response = await post({
      metrics: ['nitrogen_oxides', 'ammonia'],
      upgrade: [ALL_ELECTRIC],
      state_fips: ['44'],
      county_fips: ['009', '007'],
    });
    expect(response.statusCode).toBe(200);
    const rows = response.json().data;
    expect(rows.map((r: Record<string, string>) => [r.county_fips, r.metric])).toEqual([
      ['007', 'nitrogen_oxides'],
      ['007', 'ammonia'],
      ['009', 'nitrogen_oxides'],
      ['009', 'ammonia'],
    ]);
    expect(rows[2]).toEqual(
      expectedRow((c) => c.county_fips === '44009' && c.upgrade === ALL_ELECTRIC, 'nitrogen_oxides', {
        state_abbreviation: 'RI',
        county_fips: '009',
        county_name: 'Washington County',
      }),
    );
  });

  it('tells several upgrades apart with an upgrade column, in the order asked', async () => {
    const response = await post({
      metrics: ['fine_particulate_matter'],
      upgrade: [ALL_ELECTRIC, HP],
      state_fips: ['48'],
      group_by: ['house_size_square_feet_binned'],
    });
    const rows = response.json().data;
    expect(rows).toHaveLength(8);
    expect(Object.keys(rows[0])).toEqual([
      'state_abbreviation',
      'upgrade',
      'in_sqft_bin',
      'number_of_households',
      'metric',
      'impact',
      'units',
      'warnings',
    ]);
    expect(rows.map((r: Record<string, string>) => `${r.upgrade} ${r.in_sqft_bin}`)).toEqual([
      `${ALL_ELECTRIC} 0-1499`,
      `${ALL_ELECTRIC} 1500-2499`,
      `${ALL_ELECTRIC} 2500-5499`,
      `${ALL_ELECTRIC} 5500+`,
      `${HP} 0-1499`,
      `${HP} 1500-2499`,
      `${HP} 2500-5499`,
      `${HP} 5500+`,
    ]);
    expect(rows[5]).toEqual(
      expectedRow(
        (c) => c.state === 'TX' && c.upgrade === HP && c.sqft_bin === '1500-2499',
        'fine_particulate_matter',
        { state_abbreviation: 'TX', upgrade: HP, in_sqft_bin: '1500-2499' },
      ),
    );
  });

  it('adds up: counties to their state, bins and housing types to their total, households exactly', async () => {
    const asked = { metrics: METRICS, upgrade: [HP], state_fips: ['55'] };
    const state = (await post(asked)).json().data;
    const counties = (await post({ ...asked, county_fips: ['*'] })).json().data;
    const bins = (await post({ ...asked, group_by: [BY_BIN] })).json().data;
    const housings = (await post({ ...asked, group_by: ['housing_type'] })).json().data;
    const both = (await post({ ...asked, group_by: ['housing_type', BY_BIN] })).json().data;
    for (const [m, metric] of METRICS.entries()) {
      const parts = (rows: AnswerRow[]) => rows.filter((row) => row.metric === metric);
      for (const split of [parts(counties), parts(bins), parts(housings), parts(both)]) {
        expect(split.reduce((sum, row) => sum + row.number_of_households, 0)).toBe(
          state[m].number_of_households,
        );
        // Rounded to 2 decimals each: the parts' sum is within half a cent per part of the whole (the sums
        // before rounding are exact: health-data.test.ts).
        for (const key of ['impact', 'impact_low'] as const) {
          if (state[m][key] === undefined) continue;
          const total = split.reduce((sum, row) => sum + row[key]!, 0);
          expect(Math.abs(total - state[m][key])).toBeLessThanOrEqual(0.005 * split.length + 1e-9);
        }
      }
    }
  });

  it('carries impact_low on the mortality rows only: deaths and their value, valued at the VSL', async () => {
    const rows = (await post({ metrics: METRICS, upgrade: [ALL_ELECTRIC], state_fips: ['48'] })).json().data;
    expect(rows.map((row: Record<string, unknown>) => [row.metric, 'impact_low' in row, row.units])).toEqual([
      ['avoided_premature_mortality_incidence', true, 'deaths_per_year'],
      ['avoided_premature_mortality_value', true, 'usd_2024_per_year'],
      ['fine_particulate_matter', false, 'kg_per_year'],
      ['ammonia', false, 'kg_per_year'],
      ['nitrogen_oxides', false, 'kg_per_year'],
      ['volatile_organic_compounds', false, 'kg_per_year'],
      ['sulfur_dioxide', false, 'kg_per_year'],
    ]);
    METRICS.forEach((metric, m) =>
      expect(rows[m]).toEqual(
        expectedRow((c) => c.state === 'TX' && c.upgrade === ALL_ELECTRIC, metric, {
          state_abbreviation: 'TX',
        }),
      ),
    );
    // The value is the deaths × the value of a statistical life (each cell's on the 2⁻⁸ $ grid), then rounded.
    const texas = cells.filter((c) => c.state === 'TX' && c.upgrade === ALL_ELECTRIC);
    for (const [key, column] of [
      ['impact', 'deaths_avoided'],
      ['impact_low', 'deaths_avoided_low'],
    ] as const) {
      const deaths = texas.reduce((sum, cell) => sum + cell[column], 0);
      const value = rows[1][key] as number;
      expect(Math.abs(value - deaths * VALUE_OF_STATISTICAL_LIFE.usd)).toBeLessThanOrEqual(
        0.005 + texas.length * 2 ** -9,
      );
    }
    expect(rows[1].impact_low).toBeLessThan(rows[1].impact);
    expect(rows[0].impact_low).toBeLessThan(rows[0].impact);
  });

  it('groups by housing type: single- and multi-family rows, each with its own cells', async () => {
    const response = await post({
      metrics: ['avoided_premature_mortality_incidence', 'nitrogen_oxides'],
      upgrade: [HP],
      state_fips: ['44'],
      county_fips: ['*'],
      group_by: ['housing_type'],
    });
    expect(response.statusCode).toBe(200);
    const expected = [
      ['007', 'Providence County'],
      ['009', 'Washington County'],
    ].flatMap(([county, name]) =>
      (['single_family', 'multi_family'] as const).flatMap((housing) =>
        (['avoided_premature_mortality_incidence', 'nitrogen_oxides'] as const).map((metric) =>
          expectedRow(
            (c) => c.county_fips === `44${county}` && c.upgrade === HP && c.housing_type === housing,
            metric,
            { state_abbreviation: 'RI', county_fips: county!, county_name: name!, in_housing_type: housing },
          ),
        ),
      ),
    );
    expect(response.json().data).toEqual(expected);
    // Washington County's multi-family households are few: that row warns of it.
    expect(response.json().data[6]).toMatchObject({
      county_fips: '009',
      in_housing_type: 'multi_family',
      number_of_households: 4_160,
      warnings: FEW_EN,
    });
    expect(response.json().data[0].warnings).toBeNull();
  });

  it('groups by bin and housing type together: a row per group with households, columns in order', async () => {
    const response = await post({
      metrics: ['avoided_premature_mortality_value'],
      upgrade: [ALL_ELECTRIC, HP],
      state_fips: ['55'],
      county_fips: ['*'],
      group_by: ['housing_type', BY_BIN],
    });
    const rows = response.json().data;
    expect(Object.keys(rows[0])).toEqual([
      'state_abbreviation',
      'county_fips',
      'county_name',
      'upgrade',
      'in_sqft_bin',
      'in_housing_type',
      'number_of_households',
      'metric',
      'impact',
      'impact_low',
      'units',
      'warnings',
    ]);
    // Multi-family households all sit in the smallest bin, and Menominee has none: the groups without
    // households have no row.
    const dane = [
      ['0-1499', 'single_family'],
      ['0-1499', 'multi_family'],
      ['1500-2499', 'single_family'],
      ['2500-5499', 'single_family'],
      ['5500+', 'single_family'],
    ];
    const menominee = dane.filter(([, housing]) => housing === 'single_family');
    const keys = (county: string, groups: string[][]) =>
      [ALL_ELECTRIC, HP].flatMap((upgrade) =>
        groups.map(([bin, housing]) => [county, upgrade, bin, housing]),
      );
    expect(
      rows.map((r: Record<string, string>) => [r.county_fips, r.upgrade, r.in_sqft_bin, r.in_housing_type]),
    ).toEqual([...keys('025', dane), ...keys('078', menominee)]);
    expect(rows[1]).toEqual(
      expectedRow(
        (c) =>
          c.county_fips === '55025' &&
          c.upgrade === ALL_ELECTRIC &&
          c.sqft_bin === '0-1499' &&
          c.housing_type === 'multi_family',
        'avoided_premature_mortality_value',
        {
          state_abbreviation: 'WI',
          county_fips: '025',
          county_name: 'Dane County',
          upgrade: ALL_ELECTRIC,
          in_sqft_bin: '0-1499',
          in_housing_type: 'multi_family',
        },
      ),
    );
    expect(response.json().warnings).toEqual([MULTI_FAMILY_EN]);
  });

  it('warns on rows of fewer than 5,000 households, and once per answer of multi-family households, in the language asked', async () => {
    const menominee = { metrics: ['ammonia'], upgrade: [HP], state_fips: ['55'], county_fips: ['078'] };
    const [row] = (await post(menominee)).json().data;
    expect(row.number_of_households).toBe(1_300);
    // Menominee has no multi-family households: the row's warning, none for the answer.
    expect(row.warnings).toBe(FEW_EN);
    const spanish = (await post({ ...menominee, language: 'es' })).json();
    expect(spanish.data[0].warnings).toBe(FEW_ES);
    expect(spanish.warnings).toEqual([]);

    const dane = { metrics: ['ammonia'], upgrade: [HP], state_fips: ['55'], county_fips: ['025'] };
    expect((await post(dane)).json()).toMatchObject({
      data: [{ warnings: null }],
      warnings: [MULTI_FAMILY_EN],
    });
    expect((await post({ ...dane, language: 'es' })).json().warnings).toEqual([MULTI_FAMILY_ES]);
    // Grouped by housing type, the multi-family households have their own row; the answer still says why.
    const singleFamily = (await post({ ...dane, group_by: ['housing_type'] })).json();
    expect(singleFamily.data.map((r: { in_housing_type: string }) => r.in_housing_type)).toEqual([
      'single_family',
      'multi_family',
    ]);
    expect(singleFamily.warnings).toEqual([MULTI_FAMILY_EN]);

    const washington = { ...dane, state_fips: ['44'], county_fips: ['009'], group_by: ['housing_type'] };
    const both = (await post({ ...washington, language: 'es' })).json();
    expect(both.data.map((r: { warnings: string | null }) => r.warnings)).toEqual([null, FEW_ES]);
    expect(both.warnings).toEqual([MULTI_FAMILY_ES]);
  });

  it('answers a repeated body from the cache: same bytes and ETag for the same canonical request', async () => {
    const first = await post({ metrics: ['ammonia'], upgrade: [HP], state_fips: ['55', '44'] });
    const reordered = await post({ upgrade: [HP], state_fips: ['44', '55'], metrics: ['ammonia'] });
    expect(first.statusCode).toBe(200);
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['x-snapshot-id']).toBe('with-health');
    expect(reordered.headers.etag).toBe(first.headers.etag);
    expect(reordered.body).toBe(first.body);
    const spanish = await post({
      metrics: ['ammonia'],
      upgrade: [HP],
      state_fips: ['55', '44'],
      language: 'es',
    });
    expect(spanish.headers.etag).not.toBe(first.headers.etag);
    const otherOrder = await post({ metrics: ['ammonia', 'sulfur_dioxide'], upgrade: [HP] });
    const swapped = await post({ metrics: ['sulfur_dioxide', 'ammonia'], upgrade: [HP] });
    expect(swapped.headers.etag).not.toBe(otherOrder.headers.etag);
    expect(swapped.json().data[0].metric).toBe('sulfur_dioxide');
    // The groups' order changes nothing in the answer, so nothing in its name either.
    const grouped = await post({ ...valid, group_by: [BY_BIN, 'housing_type'] });
    const regrouped = await post({ ...valid, group_by: ['housing_type', BY_BIN] });
    expect(grouped.statusCode).toBe(200);
    expect(regrouped.headers.etag).toBe(grouped.headers.etag);
    expect(regrouped.body).toBe(grouped.body);
  });

  it('answers concurrent requests over HTTP each with its own bytes (answers are lent, their buffers reused)', async () => {
    const { app } = server();
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const bodies = (['ammonia', 'sulfur_dioxide', 'nitrogen_oxides'] as const).flatMap((metric) =>
      [HP, ALL_ELECTRIC].flatMap((upgrade) =>
        (['en', 'es'] as const).flatMap((language) =>
          [undefined, ['55'], ['44', '55']].map((state_fips) => ({
            metrics: [metric],
            upgrade: [upgrade],
            language,
            ...(state_fips ? { state_fips } : {}),
          })),
        ),
      ),
    );
    const overHttp = await Promise.all(
      bodies.map(async (body) => {
        const response = await fetch(`${base}${URL}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        return { status: response.status, text: await response.text() };
      }),
    );
    for (const [i, body] of bodies.entries()) {
      expect(overHttp[i]!.status).toBe(200);
      const alone = await post(body);
      expect(overHttp[i]!.text).toBe(alone.body);
      expect(JSON.parse(overHttp[i]!.text).data[0].metric).toBe(body.metrics[0]);
    }
  });

  it.each([
    [{ upgrade: [HP] }, 'metrics', 'metrics: is required', 'metrics: es obligatorio'],
    [{ ...valid, metrics: [] }, 'metrics', 'metrics: must not be empty', 'metrics: no puede estar vacío'],
    [
      { ...valid, metrics: ['ammonia', 'ammonia'] },
      'metrics',
      'metrics: must not repeat a value',
      'metrics: no puede repetir valores',
    ],
    [
      { ...valid, metrics: ['ozone'] },
      'metrics',
      'metrics: must be one of: avoided_premature_mortality_incidence, avoided_premature_mortality_value, fine_particulate_matter, ammonia, nitrogen_oxides, volatile_organic_compounds, sulfur_dioxide',
      'metrics: debe ser uno de: avoided_premature_mortality_incidence, avoided_premature_mortality_value, fine_particulate_matter, ammonia, nitrogen_oxides, volatile_organic_compounds, sulfur_dioxide',
    ],
    [{ ...valid, metrics: 'ammonia' }, 'metrics', 'metrics: must be a list', 'metrics: debe ser una lista'],
    [
      { ...valid, upgrade: ['baseline'] },
      'upgrade',
      'upgrade: must be one of: weatherization__insulation_air_duct_sealing, hvac__heat_pump_seer15_hspf9, hvac__heat_pump_seer18_hspf10, hvac__heat_pump_seer24_hspf13, water_heater__heat_pump_uef3.35, combination__hvac_seer18_hspf10__weatherization, combination__all_electric__hvac_seer24_hspf13__weatherization',
      'upgrade: debe ser uno de: weatherization__insulation_air_duct_sealing, hvac__heat_pump_seer15_hspf9, hvac__heat_pump_seer18_hspf10, hvac__heat_pump_seer24_hspf13, water_heater__heat_pump_uef3.35, combination__hvac_seer18_hspf10__weatherization, combination__all_electric__hvac_seer24_hspf13__weatherization',
    ],
    [
      { ...valid, state_fips: [44] },
      'state_fips',
      'state_fips: item 0 must be text, not 44: a 2-digit state FIPS code in quotes, such as "44"',
      'state_fips: el elemento 0 debe ser texto, no 44: un código FIPS de estado de 2 dígitos entre comillas, como "44"',
    ],
    [
      { ...valid, state_fips: ['44'], county_fips: ['007', 9] },
      'county_fips',
      'county_fips: item 1 must be text, not 9: a 3-digit county FIPS code in quotes, such as "009"',
      'county_fips: el elemento 1 debe ser texto, no 9: un código FIPS de condado de 3 dígitos entre comillas, como "009"',
    ],
    [
      { ...valid, state_fips: ['5'] },
      'state_fips',
      'state_fips: "5" is not a 2-digit state FIPS code',
      'state_fips: "5" no es un código FIPS de estado de 2 dígitos',
    ],
    [
      { ...valid, state_fips: ['02'] },
      'state_fips',
      'state_fips: 02 (AK) is not modelled; health impacts cover the contiguous United States and DC only',
      'state_fips: 02 (AK) no está modelado; los impactos en la salud cubren solo los Estados Unidos contiguos y DC',
    ],
    [
      { ...valid, state_fips: ['44', '15'] },
      'state_fips',
      'state_fips: 15 (HI) is not modelled; health impacts cover the contiguous United States and DC only',
      'state_fips: 15 (HI) no está modelado; los impactos en la salud cubren solo los Estados Unidos contiguos y DC',
    ],
    [
      { ...valid, state_fips: ['03'] },
      'state_fips',
      'state_fips: no state of the United States has FIPS code 03',
      'state_fips: ningún estado de los Estados Unidos tiene el código FIPS 03',
    ],
    [
      { ...valid, county_fips: ['*'] },
      'county_fips',
      'county_fips: give exactly one state in state_fips to ask for counties',
      'county_fips: indique exactamente un estado en state_fips para pedir condados',
    ],
    [
      { ...valid, state_fips: ['44', '55'], county_fips: ['007'] },
      'county_fips',
      'county_fips: give exactly one state in state_fips to ask for counties',
      'county_fips: indique exactamente un estado en state_fips para pedir condados',
    ],
    [
      { ...valid, state_fips: ['44'], county_fips: ['005'] },
      'county_fips',
      'county_fips: RI has no county with FIPS code 005',
      'county_fips: RI no tiene ningún condado con el código FIPS 005',
    ],
    [
      { ...valid, state_fips: ['44'], county_fips: ['44007'] },
      'county_fips',
      'county_fips: "44007" is not a 3-digit county FIPS code; give ["*"] alone for every county',
      'county_fips: "44007" no es un código FIPS de condado de 3 dígitos; indique ["*"] solo para todos los condados',
    ],
    [
      { ...valid, state_fips: ['44'], county_fips: ['*', '007'] },
      'county_fips',
      'county_fips: "*" is not a 3-digit county FIPS code; give ["*"] alone for every county',
      'county_fips: "*" no es un código FIPS de condado de 3 dígitos; indique ["*"] solo para todos los condados',
    ],
    [
      { ...valid, group_by: ['acs_housing_type'] },
      'group_by',
      'group_by: must be one of: house_size_square_feet_binned, housing_type',
      'group_by: debe ser uno de: house_size_square_feet_binned, housing_type',
    ],
    [
      { ...valid, group_by: ['housing_type', 'housing_type'] },
      'group_by',
      'group_by: must not repeat a value',
      'group_by: no puede repetir valores',
    ],
    [
      { ...valid, state: 'WI' },
      'state',
      'state: is not a field of this request',
      'state: no es un campo de esta solicitud',
    ],
    [
      { ...valid, state_fips: Array.from({ length: 61 }, (_, i) => String(i).padStart(2, '0')) },
      'state_fips',
      'state_fips: must have at most 60 values',
      'state_fips: debe tener como máximo 60 valores',
    ],
  ])('refuses %j with a 400 naming %s, in English and Spanish', async (body, field, english, spanish) => {
    for (const [language, message] of [
      ['en', english],
      ['es', spanish],
    ] as const) {
      const response = await post({ ...body, language });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ statusCode: 400, error: 'Bad Request', message, field });
    }
  });

  it('answers 404 naming state_fips for a contiguous state the data has no rows for', async () => {
    const response = await post({ ...valid, state_fips: ['06'] });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'state_fips: 06 (CA) has no health impacts in the data being served',
      field: 'state_fips',
    });
  });

  it('refuses bodies that are not a JSON object, malformed JSON, and bodies over 64 KB', async () => {
    expect((await post([valid])).json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'body: must be a JSON object',
      field: 'body',
    });
    const malformed = await post('{"metrics": ["ammonia"');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message:
        "body: is not valid JSON (line 1, column 23: Expected ',' or ']' after array element); " +
        'send one JSON object with the header "Content-Type: application/json"',
      field: 'body',
    });
    const spanish = await post(`{"language": "es", "metrics": ["ammonia"], "upgrade": ["${HP}"],}`);
    expect(spanish.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message:
        'body: no es JSON válido (línea 1, columna 89: se esperaba un nombre de propiedad entre comillas dobles); ' +
        'envíe un único objeto JSON con la cabecera "Content-Type: application/json"',
      field: 'body',
    });
    const padded = JSON.stringify({ ...valid, state_fips: Array(14_000).fill('44') });
    expect(padded.length).toBeGreaterThan(64 * 1024);
    const tooLarge = await post(padded);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({
      statusCode: 413,
      error: 'Payload Too Large',
      message: 'Request body is too large',
      field: 'body',
    });
  });

  it('answers a body sent without Content-Type 415, saying to send JSON, in the language of the query', async () => {
    for (const [query, message] of [
      [
        '',
        'content-type: the body must be JSON; send one JSON object with the header "Content-Type: application/json"',
      ],
      [
        '?language=es',
        'content-type: el cuerpo debe ser JSON; envíe un único objeto JSON con la cabecera "Content-Type: application/json"',
      ],
    ]) {
      const response = await server().app.inject({
        method: 'POST',
        url: `${URL}${query}`,
        headers: auth,
        payload: JSON.stringify(valid),
      });
      expect(response.statusCode).toBe(415);
      expect(response.json()).toEqual({
        statusCode: 415,
        error: 'Unsupported Media Type',
        message,
        field: 'content-type',
      });
    }
  });

  it('requires a key, like every data route', async () => {
    const response = await server().app.inject({ method: 'POST', url: URL, payload: valid });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST /api/v2/etools/health-impacts on a snapshot without health impacts', () => {
  const bare = lakeServerForSpecs('without-health', {
    tables: () => [],
    routeGroups: () => [createHealthApi()] as RouteGroup<unknown>[],
    key: HEALTH_TEST_KEY,
  });

  it('answers 503 with Retry-After, in the language asked, while other routes keep serving', async () => {
    for (const [language, message] of [
      ['en', 'Health impacts are not in the data being served yet; retry later'],
      ['es', 'Los impactos en la salud aún no están en los datos publicados; vuelva a intentarlo más tarde'],
    ]) {
      const response = await bare().app.inject({
        method: 'POST',
        url: URL,
        headers: auth,
        payload: { ...valid, language },
      });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('60');
      expect(response.json()).toEqual({ statusCode: 503, error: 'Service Unavailable', message });
    }
    const programs = await bare().app.inject({ method: 'GET', url: '/v1/programs', headers: auth });
    expect(programs.statusCode).toBe(200);
  });
});
