import { z } from 'zod';
import type { SourceParser } from '../../../ingest/source.ts';
import type { RecordSchema } from '../../../schemas/record-schema.ts';
import {
  REM_RECORDS,
  remRecordSchemas,
  countyProfileSchema,
  emissionFactorSchema,
  energyRateSchema,
  type CountyProfile,
  type EmissionFactor,
  type EnergyRate,
} from '../../../schemas/rem-data.ts';
import {
  damageFactorSchema,
  HEALTH_RECORDS,
  healthRecordSchemas,
  type DamageFactor,
} from '../../../schemas/health-data.ts';
import type { LakeTable } from '../../../transform/tables/lake-table.ts';
import {
  remCountyRow,
  remCountyRowSchema,
  type RemCountyRow,
} from '../../../transform/tables/rem/rem-tables.ts';

/**
 * A handful of REM and health source records (counties, rates, emission and damage factors, county population
 * and area, power plants) in one JSON file, round figures for tests, not data, with stand-ins for the lake
 * tables the stage reads. Rates and factors leave out year and publisher in the file; the parser fills them
 * with the fixture's own. Counties take their state's heating-fuel shares.
 */

const FIXTURE = { year: 2024, publisher: 'test fixture' };

const schemaNamed = (name: string): RecordSchema => remRecordSchemas.find((s) => s.name === name)!;
const records = {
  county: schemaNamed(REM_RECORDS.county),
  rate: schemaNamed(REM_RECORDS.energyRate),
  factor: schemaNamed(REM_RECORDS.emissionFactor),
  damage: healthRecordSchemas.find((s) => s.name === HEALTH_RECORDS.damageFactor)!,
  geography: healthRecordSchemas.find((s) => s.name === HEALTH_RECORDS.countyGeography)!,
  plant: healthRecordSchemas.find((s) => s.name === HEALTH_RECORDS.powerPlant)!,
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
  name: string,
  schema: RecordSchema,
  row: z.ZodType<Row>,
): LakeTable<Row> {
  return {
    name,
    schemaVersion: 1,
    code: [import.meta.url],
    description: `REM fixture ${name}`,
    row,
    inputs: { records: [schema.name] },
    build: (ctx) => ctx.records<Row>(schema.name),
  };
}

export const remFixtureTables: LakeTable[] = [
  {
    ...recordTable<CountyProfile>('rem_counties', records.county, countyProfileSchema),
    row: remCountyRowSchema,
    build: async (ctx) => (await ctx.records<CountyProfile>(records.county.name)).map((c) => remCountyRow(c)),
  } as LakeTable<RemCountyRow>,
  recordTable<EnergyRate>('rem_energy_rates', records.rate, energyRateSchema),
  recordTable<EmissionFactor>('rem_emission_factors', records.factor, emissionFactorSchema),
  recordTable<DamageFactor>('health_damage_factors', records.damage, damageFactorSchema),
] as LakeTable[];
