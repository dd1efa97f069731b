import type { AnyLakeTable } from '../lake-table.ts';
import {
  remCountiesTable,
  remEmissionFactorsTable,
  remEnergyRatesTable,
  remZipCountiesTable,
} from './rem-tables.ts';
import { gridEmissionFactorsTable, gridRegionsTable } from './grid-tables.ts';
import { remStageTables } from './rem-stage-tables.ts';

/**
 * The REM's source tables (counties with their stations, ZIP → county, rates and emission factors, the
 * long-run grid's regions and factors), then
 * the simulate stage's clusters and statistics computed from them.
 */
export const remLakeTables: AnyLakeTable[] = [
  remCountiesTable,
  remZipCountiesTable,
  remEnergyRatesTable,
  remEmissionFactorsTable,
  gridRegionsTable,
  gridEmissionFactorsTable,
  ...remStageTables(),
] as AnyLakeTable[];
