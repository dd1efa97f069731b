import { REM_RECORDS } from '../../schemas/rem-data.ts';
import { csvNumber, csvRecordParser } from './csv-rows.ts';

/*
 * The sources of the long-run grid: which Cambium region each county is in (NREL ReEDS), each region's
 * levelized long-run marginal CO2e rate hour by hour (NREL Cambium, as ResStock ships it) and its projected
 * generation by technology (NREL Cambium annual results). See ingest/default-data/rem/SOURCES.md.
 */

/** County → ReEDS balancing area → Cambium region (ingest/default-data/rem/county-grid-regions-reeds-2024.csv). */
export const countyGridRegionsParser = csvRecordParser({
  kind: 'reeds-county-grid-regions',
  record: REM_RECORDS.countyGridRegion,
  label: 'county grid regions (CSV)',
  columns: ['county_fips', 'balancing_area', 'grid_region'],
  key: (row) => row.county_fips,
  payload: (row) => ({
    county_fips: row.county_fips,
    balancing_area: row.balancing_area,
    grid_region: row.grid_region,
  }),
});

const HOURS = Array.from({ length: 24 }, (_, h) => `h${String(h).padStart(2, '0')}` as const);

/** One row per region and month, its 24 hourly rates in columns h00 … h23 (kg CO2e/MWh). */
export const lrmerProfilesParser = csvRecordParser({
  kind: 'cambium-lrmer-profiles',
  record: REM_RECORDS.lrmerProfile,
  label: 'Cambium long-run marginal emission rates (CSV)',
  columns: ['grid_region', 'month', ...HOURS],
  key: (row) => `${row.grid_region}/${row.month}`,
  payload: (row) => ({
    grid_region: row.grid_region,
    month: csvNumber(row.month),
    hourly_kg_per_mwh: HOURS.map((hour) => csvNumber(row[hour])),
  }),
});

/** One row per region and model year: total generation and that of each fossil technology (MWh). */
export const gridGenerationParser = csvRecordParser({
  kind: 'cambium-generation',
  record: REM_RECORDS.gridGeneration,
  label: 'Cambium generation by region (CSV)',
  columns: ['grid_region', 'year', 'generation_mwh', 'coal_mwh', 'gas_cc_mwh', 'gas_ct_mwh', 'o_g_s_mwh'],
  key: (row) => `${row.grid_region}/${row.year}`,
  payload: (row) => ({
    grid_region: row.grid_region,
    year: csvNumber(row.year),
    generation_mwh: csvNumber(row.generation_mwh),
    coal_mwh: csvNumber(row.coal_mwh),
    gas_cc_mwh: csvNumber(row.gas_cc_mwh),
    gas_ct_mwh: csvNumber(row.gas_ct_mwh),
    o_g_s_mwh: csvNumber(row.o_g_s_mwh),
  }),
});
