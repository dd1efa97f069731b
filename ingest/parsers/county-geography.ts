import { HEALTH_RECORDS } from '../../schemas/health-data.ts';
import { csvNumber, csvRecordParser } from './csv-rows.ts';

/**
 * Counties' population and land area (ingest/default-data/health/county-population-area.csv, or any CSV
 * with its columns): one `health.county-geography` record per county.
 */
export const countyGeographyParser = csvRecordParser({
  kind: 'county-population-area',
  record: HEALTH_RECORDS.countyGeography,
  label: 'county population and land area (CSV)',
  columns: ['county_fips', 'population', 'land_area_km2'],
  key: (row) => row.county_fips,
  payload: (row) => ({
    county_fips: row.county_fips,
    population: csvNumber(row.population),
    land_area_km2: csvNumber(row.land_area_km2),
  }),
});
