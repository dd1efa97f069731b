import { REM_RECORDS } from '../../schemas/rem-data.ts';
import { csvNumber, csvRecordParser } from './csv-rows.ts';

/**
 * Counties' main heating fuel, ACS B25040 shares (ingest/default-data/rem/county-heating-fuel-acs-2020-2024.csv,
 * or any CSV with its columns): one `rem.county-heating-fuel` record per county (or per state, FIPS SS000).
 */
export const countyHeatingFuelParser = csvRecordParser({
  kind: 'acs-county-heating-fuel',
  record: REM_RECORDS.countyHeatingFuel,
  label: 'county heating fuel (CSV)',
  columns: ['county_fips', 'occupied_units', 'natural_gas', 'electricity', 'fuel_oil', 'other'],
  key: (row) => row.county_fips,
  payload: (row) => ({
    county_fips: row.county_fips,
    occupied_units: csvNumber(row.occupied_units),
    natural_gas: csvNumber(row.natural_gas),
    electricity: csvNumber(row.electricity),
    fuel_oil: csvNumber(row.fuel_oil),
    other: csvNumber(row.other),
  }),
});
