import type { LakeTable } from '../lake-table.ts';
import {
  remCountiesTable,
  remEmissionFactorsTable,
  remEnergyRatesTable,
  remZipCountiesTable,
} from './rem-tables.ts';

/** The REM's source tables: counties with their stations, ZIP → county, rates and emission factors. */
export const remLakeTables: LakeTable[] = [
  remCountiesTable,
  remZipCountiesTable,
  remEnergyRatesTable,
  remEmissionFactorsTable,
] as LakeTable[];
