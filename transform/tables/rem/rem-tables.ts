import type { z } from 'zod';
import type { RecordSchema } from '../../../schemas/record-schema.ts';
import {
  type CountyHeatingFuel,
  type CountyProfile,
  REM_RECORD_SCHEMAS as S,
  type RemCountyRow,
} from '../../../schemas/rem-data.ts';
import {
  REM_COUNTIES,
  REM_EMISSION_FACTORS,
  REM_ENERGY_RATES,
  REM_ZIP_COUNTIES,
} from '../../../data-lake/tables/rem.ts';
import type { TableRef } from '../../../data-lake/tables/table-ref.ts';
import { assignStation } from '../../../model/climate/assign-station.ts';
import {
  countyFuelShares,
  propaneShareOfOther,
  sharesOfHousingType,
  stateFuelShares,
} from '../../../model/parameters/heating-fuel.ts';
import type { LakeTable } from '../lake-table.ts';
import {
  auditRemCounties,
  auditRemEmissionFactors,
  auditRemEnergyRates,
  auditRemZipCounties,
} from './rem-audits.ts';

/** The REM's location, rate and emission-factor tables, each declared once (the simulate stage and the REM routes read them). */

const byKey =
  <T>(key: (row: T) => string) =>
  (a: T, b: T) =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/** The station of a county's climate: the nearest station of its IECC zone. */
export function stationOf(county: Pick<CountyProfile, 'climate_zone' | 'latitude' | 'longitude'>): string {
  return assignStation({
    climateZone: county.climate_zone,
    latitude: county.latitude,
    longitude: county.longitude,
  }).id;
}

type CountyFuels = Pick<
  RemCountyRow,
  'heating_fuel_shares' | 'multi_family_heating_fuel_shares' | 'heating_fuel_basis'
>;

/**
 * Each county's heating-fuel shares by housing type: from its own row of the heating-fuel source, else its
 * state's row there (FIPS SS000), else the sampler's state table. Propane, which ACS B25040 lumps with
 * wood and other fuels here, is that "other" times the state's propane fraction of it (propaneShareOfOther).
 */
export function heatingFuelsByCounty(
  counties: readonly Pick<CountyProfile, 'county_fips' | 'state'>[],
  sources: readonly CountyHeatingFuel[],
): Map<string, CountyFuels> {
  const byFips = new Map(sources.map((r) => [r.county_fips, r]));
  const stateTotals = new Map<
    string,
    { units: number; natural_gas: number; electricity: number; fuel_oil: number; other: number }
  >();
  for (const r of sources) {
    const state = r.county_fips.slice(0, 2);
    const t = stateTotals.get(state) ?? { units: 0, natural_gas: 0, electricity: 0, fuel_oil: 0, other: 0 };
    t.units += r.occupied_units;
    t.natural_gas += r.natural_gas * r.occupied_units;
    t.electricity += r.electricity * r.occupied_units;
    t.fuel_oil += r.fuel_oil * r.occupied_units;
    t.other += r.other * r.occupied_units;
    stateTotals.set(state, t);
  }
  const out = new Map<string, CountyFuels>();
  for (const county of counties) {
    const stateFips = county.county_fips.slice(0, 2);
    const own = byFips.get(county.county_fips);
    const row = own ?? byFips.get(`${stateFips}000`);
    let all = stateFuelShares(county.state);
    let basis: CountyFuels['heating_fuel_basis'] = 'state_table';
    const totals = stateTotals.get(stateFips);
    if (row && totals) {
      const fraction = propaneShareOfOther(county.state, {
        natural_gas: totals.natural_gas / totals.units,
        electricity: totals.electricity / totals.units,
        fuel_oil: totals.fuel_oil / totals.units,
        other: totals.other / totals.units,
      });
      all = countyFuelShares(row, fraction);
      basis = own ? 'county' : 'state';
    }
    if (!all)
      throw new Error(`county ${county.county_fips}: state ${county.state} has no heating-fuel shares`);
    out.set(county.county_fips, {
      heating_fuel_shares: sharesOfHousingType(all, 'single_family'),
      multi_family_heating_fuel_shares: sharesOfHousingType(all, 'multi_family'),
      heating_fuel_basis: basis,
    });
  }
  return out;
}

/**
 * A county as the REM sees it: its profile, its weather station, its Cambium grid region and its
 * heating-fuel shares (by default its state's, as for a county no heating-fuel source covers).
 */
export function remCountyRow(
  county: CountyProfile,
  gridRegion: string,
  fuels: CountyFuels = heatingFuelsByCounty([county], []).get(county.county_fips)!,
): RemCountyRow {
  return { ...county, station_id: stationOf(county), ...fuels, grid_region: gridRegion };
}

export const remCountiesTable: LakeTable<RemCountyRow> = {
  ...REM_COUNTIES,
  schemaVersion: 3,
  code: [import.meta.url],
  description:
    'Counties of the contiguous US and DC as the REM sampler sees them: households, housing mix, IECC zone, centroid, assigned weather station, main heating fuel shares of single- and multi-family homes (ACS B25040 by county, split by housing type with RECS 2020), and Cambium grid region (NREL ReEDS)',
  inputs: { records: [S.county, S.countyHeatingFuel, S.countyGridRegion] },
  build: async (ctx) => {
    const counties = await ctx.records(S.county);
    const fuels = heatingFuelsByCounty(counties, await ctx.records(S.countyHeatingFuel));
    const regions = new Map(
      (await ctx.records(S.countyGridRegion)).map((r) => [r.county_fips, r.grid_region]),
    );
    return counties
      .map((county) => {
        const region = regions.get(county.county_fips);
        if (!region)
          throw new Error(`county ${county.county_fips} has no grid region (source county-grid-regions)`);
        return remCountyRow(county, region, fuels.get(county.county_fips)!);
      })
      .sort(byKey((r) => r.county_fips));
  },
  audit: (rows) => auditRemCounties(rows),
};

/** A table holding one record schema's accepted records, sorted by a key, with its audit. */
export function sortedRecordTable<Row extends Record<string, unknown>>(spec: {
  ref: TableRef<Row>;
  description: string;
  record: RecordSchema<z.ZodType<Row>>;
  key: (row: Row) => string;
  tables?: readonly TableRef[];
  audit: LakeTable<Row>['audit'];
  /** The declaring module (`import.meta.url`), whose audit is part of the table's code. */
  code: string;
}): LakeTable<Row> {
  return {
    ...spec.ref,
    schemaVersion: 1,
    code: [import.meta.url, spec.code],
    description: spec.description,
    inputs: { records: [spec.record], ...(spec.tables ? { tables: spec.tables } : {}) },
    build: async (ctx) => (await ctx.records(spec.record)).sort(byKey(spec.key)),
    audit: spec.audit,
  };
}

export const remZipCountiesTable = sortedRecordTable({
  ref: REM_ZIP_COUNTIES,
  description:
    'Every US ZIP with a county: its state, county FIPS and coordinates (GeoNames postal codes, CC BY 4.0)',
  record: S.zipCounty,
  key: (r) => r.zip,
  tables: [REM_COUNTIES],
  audit: async (rows, ctx) => auditRemZipCounties(rows, await ctx.table(REM_COUNTIES)),
  code: import.meta.url,
});

export const remEnergyRatesTable = sortedRecordTable({
  ref: REM_ENERGY_RATES,
  description:
    'Residential energy rates per state and fuel: volumetric ($/kWh, $/therm, $/gallon) and fixed ($/month), with year, publisher and how they were derived',
  record: S.energyRate,
  key: (r) => `${r.state}/${r.fuel}`,
  audit: (rows) => auditRemEnergyRates(rows),
  code: import.meta.url,
});

export const remEmissionFactorsTable = sortedRecordTable({
  ref: REM_EMISSION_FACTORS,
  description:
    'Emission factors per region, fuel and pollutant, per delivered unit; basis says on-site combustion or a grid average / marginal rate',
  record: S.emissionFactor,
  key: (r) => `${r.region}/${r.fuel}/${r.pollutant}`,
  audit: (rows) => auditRemEmissionFactors(rows),
  code: import.meta.url,
});
