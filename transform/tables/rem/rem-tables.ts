import { z } from 'zod';
import {
  REM_RECORDS,
  countyProfileSchema,
  emissionFactorSchema,
  energyRateSchema,
  zipCountySchema,
  type CountyProfile,
  type EmissionFactor,
  type EnergyRate,
  type ZipCounty,
} from '../../../schemas/rem-data.ts';
import { assignStation } from '../../../simulate/climate/assign-station.ts';
import type { LakeTable } from '../lake-table.ts';
import {
  auditRemCounties,
  auditRemEmissionFactors,
  auditRemEnergyRates,
  auditRemZipCounties,
} from './rem-audits.ts';

/** The REM's location, rate and emission-factor tables, each declared once (the simulate stage and the REM routes read them). */

export const remCountyRowSchema = countyProfileSchema.extend({
  /** The weather station standing for the county's climate (simulate/climate/stations.ts). */
  station_id: z.string().regex(/^[a-z0-9-]+$/),
});
export type RemCountyRow = z.infer<typeof remCountyRowSchema>;

const byKey =
  <T>(key: (row: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/** A county with the station of its climate: the nearest station of its IECC zone. */
export function withStation(county: CountyProfile): RemCountyRow {
  const station = assignStation({
    climateZone: county.climate_zone,
    latitude: county.latitude,
    longitude: county.longitude,
  });
  return { ...county, station_id: station.id };
}

export const remCountiesTable: LakeTable<RemCountyRow> = {
  name: 'rem_counties',
  schemaVersion: 1,
  code: [import.meta.url],
  description:
    'Counties of the contiguous US and DC as the REM sampler sees them: households, housing mix, IECC zone, centroid and assigned weather station',
  row: remCountyRowSchema,
  inputs: { records: [REM_RECORDS.county] },
  build: async (ctx) =>
    (await ctx.records<CountyProfile>(REM_RECORDS.county)).map(withStation).sort(byKey((r) => r.county_fips)),
  audit: (rows) => auditRemCounties(rows),
};

/** A table holding one record schema's accepted records, sorted by a key, with its audit. */
export function sortedRecordTable<Row extends Record<string, unknown>>(spec: {
  name: string;
  description: string;
  record: string;
  row: z.ZodType<Row>;
  key: (row: Row) => string;
  tables?: string[];
  audit: LakeTable<Row>['audit'];
  /** The declaring module (`import.meta.url`), whose audit is part of the table's code. */
  code: string;
}): LakeTable<Row> {
  return {
    name: spec.name,
    schemaVersion: 1,
    code: [import.meta.url, spec.code],
    description: spec.description,
    row: spec.row,
    inputs: { records: [spec.record], ...(spec.tables ? { tables: spec.tables } : {}) },
    build: async (ctx) => (await ctx.records<Row>(spec.record)).sort(byKey(spec.key)),
    audit: spec.audit,
  };
}

export const remZipCountiesTable = sortedRecordTable<ZipCounty>({
  name: 'rem_zip_counties',
  description:
    'Every US ZIP with a county: its state, county FIPS and coordinates (GeoNames postal codes, CC BY 4.0)',
  record: REM_RECORDS.zipCounty,
  row: zipCountySchema,
  key: (r) => r.zip,
  tables: ['rem_counties'],
  audit: async (rows, ctx) => auditRemZipCounties(rows, await ctx.table<RemCountyRow>('rem_counties')),
  code: import.meta.url,
});

export const remEnergyRatesTable = sortedRecordTable<EnergyRate>({
  name: 'rem_energy_rates',
  description:
    'Residential energy rates per state and fuel: volumetric ($/kWh, $/therm, $/gallon) and fixed ($/month), with year, publisher and how they were derived',
  record: REM_RECORDS.energyRate,
  row: energyRateSchema,
  key: (r) => `${r.state}/${r.fuel}`,
  audit: (rows) => auditRemEnergyRates(rows),
  code: import.meta.url,
});

export const remEmissionFactorsTable = sortedRecordTable<EmissionFactor>({
  name: 'rem_emission_factors',
  description:
    'Emission factors per region, fuel and pollutant, per delivered unit; basis says on-site combustion or a grid average / marginal rate',
  record: REM_RECORDS.emissionFactor,
  row: emissionFactorSchema,
  key: (r) => `${r.region}/${r.fuel}/${r.pollutant}`,
  audit: (rows) => auditRemEmissionFactors(rows),
  code: import.meta.url,
});
