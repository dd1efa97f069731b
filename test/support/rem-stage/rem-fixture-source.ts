import { z } from 'zod';
import type { SourceParser } from '../../../ingest/source.ts';
import { HEALTH_RECORD_SCHEMAS } from '../../../schemas/health-data.ts';
import type { RecordSchema } from '../../../schemas/record-schema.ts';
import { REM_RECORD_SCHEMAS, type GridEmissionFactor, type RemCountyRow } from '../../../schemas/rem-data.ts';
import { HEALTH_DAMAGE_FACTORS } from '../../../data-lake/tables/health.ts';
import {
  REM_COUNTIES,
  REM_EMISSION_FACTORS,
  REM_ENERGY_RATES,
  REM_GRID_EMISSION_FACTORS,
} from '../../../data-lake/tables/rem.ts';
import type { TableRef } from '../../../data-lake/tables/table-ref.ts';
import type { AnyLakeTable, LakeTable } from '../../../transform/tables/lake-table.ts';
import { gridEmissionFactors } from '../../../transform/tables/rem/long-run-grid.ts';
import { remCountyRow } from '../../../transform/tables/rem/rem-tables.ts';
import { FIXTURE_GRID_REGIONS, fixtureGridRegion } from '../grid-fixture.ts';

/**
 * A handful of REM and health source records (counties, rates, emission and damage factors, county population
 * and area, power plants) in one JSON file, round figures for tests, not data, with stand-ins for the lake
 * tables the stage reads. Rates and factors leave out year and publisher in the file; the parser fills them
 * with the fixture's own. Counties take their state's heating-fuel shares.
 */

const FIXTURE = { year: 2024, publisher: 'test fixture' };

const records = {
  county: REM_RECORD_SCHEMAS.county,
  rate: REM_RECORD_SCHEMAS.energyRate,
  factor: REM_RECORD_SCHEMAS.emissionFactor,
  damage: HEALTH_RECORD_SCHEMAS.damageFactor,
  geography: HEALTH_RECORD_SCHEMAS.countyGeography,
  plant: HEALTH_RECORD_SCHEMAS.powerPlant,
};
export const remFixtureRecordSchemas: RecordSchema[] = Object.values(records);

const fileSchema = z.object({
  counties: z.array(z.record(z.string(), z.unknown())),
  rates: z.array(z.record(z.string(), z.unknown())),
  factors: z.array(z.record(z.string(), z.unknown())),
  damage_factors: z.array(z.record(z.string(), z.unknown())),
  county_geography: z.array(z.record(z.string(), z.unknown())),
  power_plants: z.array(z.record(z.string(), z.unknown())),
});

export const remFixtureParser: SourceParser = {
  kind: 'rem-fixture',
  recordSchemas: remFixtureRecordSchemas.map((s) => s.name),
  async parse(reader) {
    const body = await reader.read('rem.json');
    if (body === null) throw new Error('rem.json is missing');
    const file = fileSchema.parse(JSON.parse(body.toString('utf8')));
    return [
      ...file.counties.map((c) => ({ schema: records.county.name, key: String(c.county_fips), payload: c })),
      ...file.rates.map((r) => ({
        schema: records.rate.name,
        key: `${String(r.state)}/${String(r.fuel)}`,
        payload: { ...r, ...FIXTURE, method: 'fixture' },
      })),
      // A factor without a pollutant is a CO2e factor.
      ...file.factors.map((f) => ({
        schema: records.factor.name,
        key: `${String(f.region)}/${String(f.fuel)}/${String(f.pollutant ?? 'co2e')}`,
        payload: { pollutant: 'co2e', ...f, ...FIXTURE },
      })),
      ...file.damage_factors.map((d) => ({
        schema: records.damage.name,
        key: `${String(d.region)}/${String(d.sector)}/${String(d.pollutant)}`,
        payload: { ...d, ...FIXTURE, method: 'fixture' },
      })),
      ...file.county_geography.map((g) => ({
        schema: records.geography.name,
        key: String(g.county_fips),
        payload: g,
      })),
      ...file.power_plants.map((p) => ({ schema: records.plant.name, key: String(p.plant_id), payload: p })),
    ];
  },
};

function recordTable<Row extends Record<string, unknown>>(
  ref: TableRef<Row>,
  schema: RecordSchema<z.ZodType<Row>>,
): LakeTable<Row> {
  return {
    ...ref,
    schemaVersion: 1,
    code: [import.meta.url],
    description: `REM fixture ${ref.name}`,
    inputs: { records: [schema] },
    build: (ctx) => ctx.records(schema),
  };
}

export const remFixtureTables: AnyLakeTable[] = [
  {
    ...REM_COUNTIES,
    schemaVersion: 1,
    code: [import.meta.url],
    description: "REM fixture rem_counties, with their state's heating-fuel shares",
    inputs: { records: [REM_RECORD_SCHEMAS.county] },
    build: async (ctx) =>
      (await ctx.records(REM_RECORD_SCHEMAS.county)).map((c) =>
        remCountyRow(c, fixtureGridRegion(c.county_fips)),
      ),
  } satisfies LakeTable<RemCountyRow>,
  recordTable(REM_ENERGY_RATES, REM_RECORD_SCHEMAS.energyRate),
  recordTable(REM_EMISSION_FACTORS, REM_RECORD_SCHEMAS.emissionFactor),
  {
    ...REM_GRID_EMISSION_FACTORS,
    schemaVersion: 1,
    code: [import.meta.url],
    description: 'REM fixture rem_grid_emission_factors, from the fixture regions’ long-run figures',
    inputs: { tables: [REM_COUNTIES, REM_EMISSION_FACTORS] },
    build: async (ctx) =>
      gridEmissionFactors(
        await ctx.table(REM_COUNTIES),
        FIXTURE_GRID_REGIONS,
        await ctx.table(REM_EMISSION_FACTORS),
      ),
  } satisfies LakeTable<GridEmissionFactor>,
  recordTable(HEALTH_DAMAGE_FACTORS, HEALTH_RECORD_SCHEMAS.damageFactor),
];
