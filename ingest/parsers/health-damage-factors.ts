import { HEALTH_RECORDS } from '../../schemas/health-data.ts';
import type { SourceParser, SourceReader, SourceRecord } from '../source.ts';
import { csvNumber, csvRows, readSourceFile } from './csv-rows.ts';

/**
 * Health damage factors (ingest/default-data/health/damage-factors.csv, or any CSV with its columns): one
 * `health.damage-factor` record per region × sector × pollutant, premature deaths per tonne emitted by the
 * central and the low mortality risk estimate, with the year, publisher and how the published figure became
 * deaths per tonne.
 */
const COLUMNS = [
  'region',
  'sector',
  'pollutant',
  'deaths_per_tonne',
  'deaths_per_tonne_low',
  'year',
  'publisher',
  'method',
] as const;
const LABEL = 'health damage factors (CSV)';

export const healthDamageFactorsParser: SourceParser = {
  kind: 'health-damage-factors',
  recordSchemas: [HEALTH_RECORDS.damageFactor],
  async parse(reader: SourceReader): Promise<SourceRecord[]> {
    const rows = csvRows(await readSourceFile(reader, LABEL), LABEL, COLUMNS);
    return rows.map((row) => ({
      schema: HEALTH_RECORDS.damageFactor,
      key: `${row.region}/${row.sector}/${row.pollutant}`,
      payload: {
        region: row.region,
        sector: row.sector,
        pollutant: row.pollutant,
        deaths_per_tonne: csvNumber(row.deaths_per_tonne),
        deaths_per_tonne_low: csvNumber(row.deaths_per_tonne_low),
        year: csvNumber(row.year),
        publisher: row.publisher,
        method: row.method,
      },
    }));
  },
};
