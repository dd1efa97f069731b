import { REM_RECORDS } from '../../schemas/rem-data.ts';
import type { SourceParser, SourceReader, SourceRecord } from '../source.ts';
import { csvNumber, csvRows, readSourceFile } from './csv-rows.ts';

/**
 * The REM's emission factors (ingest/default-data/rem/emission-factors.csv, or any CSV with its columns):
 * one `rem.emission-factor` record per region × fuel × pollutant, each saying whether it is an on-site
 * combustion factor or a grid average or marginal rate, with its year and publisher.
 */
const COLUMNS = ['region', 'fuel', 'pollutant', 'value', 'unit', 'basis', 'year', 'publisher'] as const;
const LABEL = 'REM emission factors (CSV)';

export const remEmissionFactorsParser: SourceParser = {
  kind: 'rem-emission-factors',
  recordSchemas: [REM_RECORDS.emissionFactor],
  async parse(reader: SourceReader): Promise<SourceRecord[]> {
    const rows = csvRows(await readSourceFile(reader, LABEL), LABEL, COLUMNS);
    return rows.map((row) => ({
      schema: REM_RECORDS.emissionFactor,
      key: `${row.region}/${row.fuel}/${row.pollutant}`,
      payload: {
        region: row.region,
        fuel: row.fuel,
        pollutant: row.pollutant,
        value: csvNumber(row.value),
        unit: row.unit,
        basis: row.basis,
        year: csvNumber(row.year),
        publisher: row.publisher,
      },
    }));
  },
};
