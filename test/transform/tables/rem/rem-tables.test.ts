import { describe, expect, it } from 'vitest';
import type { EmissionFactor, EnergyRate, ZipCounty } from '../../../../schemas/rem-data.ts';
import { CONTIGUOUS_STATE_FIPS, emissionFactorFor, type RemCountyRow } from '../../../../schemas/rem-data.ts';
import { FUELS } from '../../../../schemas/rem.ts';
import { HEALTH_POLLUTANTS } from '../../../../schemas/health-data.ts';
import type { BuildContext } from '../../../../transform/tables/lake-table.ts';
import { inMemoryBuildContext } from '../../../support/in-memory-build-context.ts';
import { ST_LOUIS_MN, SUFFOLK_MA } from '../../../support/rem-counties.ts';
import {
  auditRemCounties,
  auditRemEmissionFactors,
  auditRemEnergyRates,
  auditRemZipCounties,
} from '../../../../transform/tables/rem/rem-audits.ts';
import {
  remCountiesTable,
  remZipCountiesTable,
  remCountyRow,
} from '../../../../transform/tables/rem/rem-tables.ts';

const suffolk = SUFFOLK_MA;
const stLouis = ST_LOUIS_MN;

/** A build context over in-memory records and tables. */
function contextOf(records: Record<string, unknown[]>, tables: Record<string, unknown[]> = {}): BuildContext {
  return inMemoryBuildContext(
    (schema) => records[schema] ?? [],
    (name) => tables[name] ?? [],
  );
}

/** One county per contiguous state (Suffolk's figures under the state's first FIPS code). */
const countyPerState: RemCountyRow[] = Object.entries(CONTIGUOUS_STATE_FIPS).map(([state, fips]) => ({
  ...remCountyRow(suffolk, 'ISONE'),
  state,
  county_fips: `${fips}001`,
}));

describe('rem_counties', () => {
  /** The Cambium regions of the counties these specs build (NREL ReEDS 2024). */
  const gridRegions = [
    { county_fips: '25025', balancing_area: 'p131', grid_region: 'ISONE' },
    { county_fips: '27137', balancing_area: 'p43', grid_region: 'MISO_North' },
    { county_fips: '44003', balancing_area: 'p133', grid_region: 'ISONE' },
  ];

  it('gives every county the nearest station of its zone and its grid region, sorted by FIPS', async () => {
    const rows = await remCountiesTable.build(
      contextOf({ 'rem.county': [stLouis, suffolk], 'rem.county-grid-region': gridRegions }),
    );
    expect(rows.map((r) => [r.county_fips, r.station_id, r.grid_region])).toEqual([
      ['25025', 'boston-ma', 'ISONE'],
      ['27137', 'duluth-mn', 'MISO_North'],
    ]);
    expect(rows[0]).toMatchObject({ ...suffolk, station_id: 'boston-ma' });
  });

  it('fails the build, naming the county, when a county has no grid region', async () => {
    await expect(
      remCountiesTable.build(
        contextOf({ 'rem.county': [stLouis, suffolk], 'rem.county-grid-region': gridRegions.slice(1) }),
      ),
    ).rejects.toThrow('county 25025 has no grid region (source county-grid-regions)');
  });

  it("gives each county its heating-fuel shares: its own ACS row, its state's row, or the state table", async () => {
    // Suffolk has its own row; Minnesota has only a statewide one (FIPS 27000); Kent County, RI, none.
    const kent = { ...suffolk, county_fips: '44003', state: 'RI', name: 'Kent County' };
    const rows = await remCountiesTable.build(
      contextOf({
        'rem.county': [stLouis, suffolk, kent],
        'rem.county-grid-region': gridRegions,
        'rem.county-heating-fuel': [
          {
            county_fips: '25025',
            occupied_units: 300_000,
            natural_gas: 0.5,
            electricity: 0.3,
            fuel_oil: 0.15,
            other: 0.05,
          },
          {
            county_fips: '27000',
            occupied_units: 2_200_000,
            natural_gas: 0.66,
            electricity: 0.19,
            fuel_oil: 0.01,
            other: 0.14,
          },
        ],
      }),
    );
    expect(rows.map((r) => [r.county_fips, r.heating_fuel_basis])).toEqual([
      ['25025', 'county'],
      ['27137', 'state'],
      ['44003', 'state_table'],
    ]);
    // Suffolk: propane is 81 % of its 5 % "other" (MA's propane share), then single-family homes burn more gas
    // and oil and apartments more electricity than the county as a whole (RECS 2020).
    expect(rows[0]!.heating_fuel_shares.natural_gas).toBeCloseTo(0.537346, 6);
    expect(rows[0]!.multi_family_heating_fuel_shares.electricity).toBeCloseTo(0.4844, 4);
    for (const row of rows) {
      for (const shares of [row.heating_fuel_shares, row.multi_family_heating_fuel_shares]) {
        expect(Object.values(shares).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      }
    }
  });

  it('passes a table with a county in every state, and names the states without one', () => {
    expect(auditRemCounties(countyPerState)).toEqual([]);
    const withoutTexas = countyPerState.filter((r) => r.state !== 'TX');
    expect(auditRemCounties(withoutTexas)).toEqual([
      {
        table: 'rem_counties',
        check: 'every_state_has_counties',
        severity: 'error',
        message: 'contiguous states (or DC) without any county',
        count: 1,
        examples: ['TX'],
      },
    ]);
  });

  it('flags a FIPS code of another state, a station far away and a station of another zone', () => {
    const wrong = [
      ...countyPerState,
      { ...remCountyRow(suffolk, 'ISONE'), county_fips: '27001' },
      { ...remCountyRow(suffolk, 'ISONE'), county_fips: '25027', station_id: 'miami-fl' },
    ];
    expect(auditRemCounties(wrong).map((f) => [f.check, f.severity, f.examples])).toEqual([
      ['fips_in_state', 'error', ['27001']],
      ['station_zone', 'warning', ['25027 5A→miami-fl']],
      ['station_distance', 'warning', ['25027 Suffolk County, MA → miami-fl']],
    ]);
  });

  it('is one warning when the REM sources are not declared, so incentives still publish', () => {
    expect(auditRemCounties([])).toEqual([
      expect.objectContaining({ check: 'not_empty', severity: 'warning' }),
    ]);
  });
});

describe('rem_zip_counties', () => {
  const boston: ZipCounty = {
    zip: '02116',
    state: 'MA',
    county_fips: '25025',
    latitude: 42.3492,
    longitude: -71.0768,
  };
  const anchorage: ZipCounty = {
    zip: '99501',
    state: 'AK',
    county_fips: '02020',
    latitude: 61.22,
    longitude: -149.86,
  };

  it('sorts ZIPs and accepts ZIPs of known counties, and ZIPs outside the contiguous US', async () => {
    const ctx = contextOf(
      { 'rem.zip-county': [anchorage, boston] },
      { rem_counties: [...countyPerState, remCountyRow(suffolk, 'ISONE')] },
    );
    const rows = await remZipCountiesTable.build(ctx);
    expect(rows.map((r) => r.zip)).toEqual(['02116', '99501']);
    expect(await remZipCountiesTable.audit!(rows, ctx)).toEqual([]);
  });

  it('reports a ZIP pointing at an unknown county, or at a county of another state', () => {
    const counties = [remCountyRow(suffolk, 'ISONE')];
    const findings = auditRemZipCounties(
      [
        { ...boston, county_fips: '25099' },
        { ...boston, zip: '02117', state: 'NH' },
      ],
      counties,
    );
    expect(findings.map((f) => [f.check, f.severity, f.examples])).toEqual([
      ['zip_has_known_county', 'error', ['02116 → 25099']],
      ['zip_state_matches_county', 'error', ['02117 NH → 25025']],
    ]);
  });
});

describe('rem_energy_rates', () => {
  const rate = (state: string, fuel: EnergyRate['fuel']): EnergyRate => ({
    state,
    fuel,
    volumetric_rate: 0.15,
    volumetric_unit: '$/kWh',
    fixed_monthly: 12,
    year: 2023,
    publisher: 'EIA SEDS',
    method: 'test',
  });
  const complete = Object.keys(CONTIGUOUS_STATE_FIPS).flatMap((s) => FUELS.map((f) => rate(s, f)));

  it('needs a rate for every contiguous state and fuel', () => {
    expect(auditRemEnergyRates(complete)).toEqual([]);
    const findings = auditRemEnergyRates(complete.filter((r) => !(r.state === 'VT' && r.fuel === 'propane')));
    expect(findings).toEqual([
      expect.objectContaining({ check: 'rate_for_every_state_and_fuel', examples: ['VT/propane'] }),
    ]);
  });
});

describe('rem_emission_factors', () => {
  const factor = (
    region: string,
    fuel: EmissionFactor['fuel'],
    basis: EmissionFactor['basis'],
    value: number,
  ): EmissionFactor => ({
    region,
    fuel,
    pollutant: 'co2e',
    value,
    unit: fuel === 'electricity' ? 'kg/kWh' : 'kg/therm',
    basis,
    year: 2022,
    publisher: 'test',
  });
  const fossil = [
    factor('US', 'natural_gas', 'combustion', 6.6798),
    factor('US', 'fuel_oil', 'combustion', 12.3069),
    factor('US', 'propane', 'combustion', 7.3776),
  ];

  it("takes a state's own electricity factor, else the national one", () => {
    const factors = [
      ...fossil,
      factor('US', 'electricity', 'average', 0.39),
      factor('VT', 'electricity', 'average', 0.01),
    ];
    expect(emissionFactorFor(factors, 'VT', 'electricity', 'co2e')?.value).toBe(0.01);
    expect(emissionFactorFor(factors, 'WV', 'electricity', 'co2e')?.value).toBe(0.39);
    expect(emissionFactorFor(fossil, 'WV', 'electricity', 'co2e')).toBeUndefined();
  });

  /** National electricity rates of every health pollutant, so a fixture's findings are about CO2e only. */
  const nationalHealthRates = HEALTH_POLLUTANTS.map((pollutant) => ({
    ...factor('US', 'electricity', 'average', 0.0001),
    pollutant,
  }));
  const HEALTH_MESSAGE =
    'health pollutants some contiguous state has no electricity rate for (neither its own nor a national one): the health model counts no power-sector tonnes of them there (states in brackets)';

  it('names each state and pollutant whose electricity rate falls back to the national row', () => {
    const states = Object.keys(CONTIGUOUS_STATE_FIPS);
    const stateRows = states.map((s) => factor(s, 'electricity', 'average', 0.4));
    const stateHealthRows = states.flatMap((s) =>
      HEALTH_POLLUTANTS.map((pollutant) => ({ ...factor(s, 'electricity', 'average', 0.0001), pollutant })),
    );
    const nationalNox = { ...factor('US', 'electricity', 'average', 0.0002), pollutant: 'nox' as const };
    const withoutNox = stateHealthRows.filter((r) => r.pollutant !== 'nox' || r.region === 'VT');
    expect(auditRemEmissionFactors([...fossil, ...stateRows, ...withoutNox, nationalNox])).toEqual([
      expect.objectContaining({
        check: 'electricity_national_fallback',
        severity: 'warning',
        count: 48,
        examples: expect.arrayContaining(['AL/nox', 'MA/nox']),
      }),
    ]);
    expect(auditRemEmissionFactors([...fossil, ...stateRows, ...stateHealthRows])).toEqual([]);
  });

  it('warns of health pollutants some state has no electricity rate for, naming the states', () => {
    const states = Object.keys(CONTIGUOUS_STATE_FIPS);
    const stateRows = states.map((s) => factor(s, 'electricity', 'average', 0.4));
    const stateHealthRows = states.flatMap((s) =>
      HEALTH_POLLUTANTS.map((pollutant) => ({ ...factor(s, 'electricity', 'average', 0.0001), pollutant })),
    );
    // No PM2.5 rate anywhere; no SO2 rate for Texas and Ohio.
    const partial = stateHealthRows.filter(
      (r) => r.pollutant !== 'pm25' && !(r.pollutant === 'so2' && (r.region === 'TX' || r.region === 'OH')),
    );
    expect(auditRemEmissionFactors([...fossil, ...stateRows, ...partial])).toEqual([
      {
        table: 'rem_emission_factors',
        check: 'electricity_health_pollutants',
        severity: 'warning',
        message: HEALTH_MESSAGE,
        count: 2,
        examples: ['pm25 [every state]', 'so2 [OH TX]'],
      },
    ]);
  });

  it('needs every fossil CO2e factor and an electricity factor for every state, and says which are national', () => {
    const onlyVermont = [...fossil, factor('VT', 'electricity', 'average', 0.01), ...nationalHealthRates];
    const findings = auditRemEmissionFactors(onlyVermont);
    expect(findings.map((f) => [f.check, f.severity, f.count])).toEqual([
      ['co2e_for_every_state_electricity', 'error', 48],
      ['electricity_national_fallback', 'warning', 49 * 5],
    ]);
    const national = auditRemEmissionFactors([
      ...fossil.slice(1),
      factor('US', 'electricity', 'combustion', 0.39),
    ]);
    expect(national.map((f) => [f.check, f.severity, f.examples?.[0]])).toEqual([
      ['co2e_for_every_fuel', 'error', 'natural_gas'],
      ['electricity_national_fallback', 'warning', 'AL/co2e'],
      ['electricity_health_pollutants', 'warning', 'pm25 [every state]'],
      ['electricity_is_grid_rate', 'error', 'US/co2e'],
    ]);
  });
});
