import { REM_RECORDS } from '../../schemas/rem-data.ts';
import type { SourceParser, SourceReader, SourceRecord } from '../source.ts';
import { csvNumber, csvRows, readSourceFile } from './csv-rows.ts';

/**
 * The REM's county table (ingest/default-data/rem/counties.csv, or any CSV with its columns): one
 * `rem.county` record (a CountyProfile) per county of the contiguous US and DC.
 */
const COLUMNS = [
  'county_fips',
  'state',
  'name',
  'households',
  'mobile_home_share',
  'multi_unit_share',
  'climate_zone',
  'latitude',
  'longitude',
] as const;
const LABEL = 'REM county profiles (CSV)';

export const remCountyProfilesParser: SourceParser = {
  kind: 'rem-county-profiles',
  recordSchemas: [REM_RECORDS.county],
  async parse(reader: SourceReader): Promise<SourceRecord[]> {
    const rows = csvRows(await readSourceFile(reader, LABEL), LABEL, COLUMNS);
    return rows.map((row) => ({
      schema: REM_RECORDS.county,
      key: row.county_fips!,
      payload: {
        county_fips: row.county_fips,
        state: row.state,
        name: row.name,
        households: csvNumber(row.households),
        mobile_home_share: csvNumber(row.mobile_home_share),
        multi_unit_share: csvNumber(row.multi_unit_share),
        climate_zone: row.climate_zone,
        latitude: csvNumber(row.latitude),
        longitude: csvNumber(row.longitude),
      },
    }));
  },
};
