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
  description:
    'Counties of the contiguous US and DC as the REM sampler sees them: households, housing mix, IECC zone, centroid and assigned weather station',
  row: remCountyRowSchema,
  inputs: { records: [REM_RECORDS.county] },
  build: async (ctx) =>
    (await ctx.records<CountyProfile>(REM_RECORDS.county)).map(withStation).sort(byKey((r) => r.county_fips)),
  audit: (rows) => auditRemCounties(rows),
};

export const remZipCountiesTable: LakeTable<ZipCounty> = {
  name: 'rem_zip_counties',
  schemaVersion: 1,
  description:
    'Every US ZIP with a county: its state, county FIPS and coordinates (GeoNames postal codes, CC BY 4.0)',
  row: zipCountySchema,
  inputs: { records: [REM_RECORDS.zipCounty], tables: ['rem_counties'] },
  build: async (ctx) => (await ctx.records<ZipCounty>(REM_RECORDS.zipCounty)).sort(byKey((r) => r.zip)),
  audit: async (rows, ctx) => auditRemZipCounties(rows, await ctx.table<RemCountyRow>('rem_counties')),
};

export const remEnergyRatesTable: LakeTable<EnergyRate> = {
  name: 'rem_energy_rates',
  schemaVersion: 1,
  description:
    'Residential energy rates per state and fuel: volumetric ($/kWh, $/therm, $/gallon) and fixed ($/month), with year, publisher and how they were derived',
  row: energyRateSchema,
  inputs: { records: [REM_RECORDS.energyRate] },
  build: async (ctx) =>
    (await ctx.records<EnergyRate>(REM_RECORDS.energyRate)).sort(byKey((r) => `${r.state}/${r.fuel}`)),
  audit: (rows) => auditRemEnergyRates(rows),
};

export const remEmissionFactorsTable: LakeTable<EmissionFactor> = {
  name: 'rem_emission_factors',
  schemaVersion: 1,
  description:
    'Emission factors per region, fuel and pollutant, per delivered unit; basis says on-site combustion or a grid average / marginal rate',
  row: emissionFactorSchema,
  inputs: { records: [REM_RECORDS.emissionFactor] },
  build: async (ctx) =>
    (await ctx.records<EmissionFactor>(REM_RECORDS.emissionFactor)).sort(
      byKey((r) => `${r.region}/${r.fuel}/${r.pollutant}`),
    ),
  audit: (rows) => auditRemEmissionFactors(rows),
};
