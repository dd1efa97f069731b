import type { LakeTable } from '../lake-table.ts';
import * as records from './record-tables.ts';
import { servingLocationsTable } from './serving-locations.ts';
import { servingStatesTable } from './serving-states.ts';

/** The incentives domain's lake: normalized tables for analysts, then the two serving tables. */
export const incentivesLakeTables: LakeTable[] = [
  records.incentivesTable,
  records.incentiveProgramsTable,
  records.incentiveAuthoritiesTable,
  records.incentiveRelationshipsTable,
  records.geoGroupsTable,
  records.lowIncomeThresholdsTable,
  records.povertyLevelsTable,
  records.taxBracketsTable,
  records.dataPartnersTable,
  records.loanProgramsTable,
  records.zipsTable,
  records.geographiesTable,
  records.zctaGeographiesTable,
  records.utilityZipsTable,
  records.amiZctaTable,
  records.amiTerritoryTable,
  records.evChargerZctaTable,
  records.evChargerTractTable,
  servingLocationsTable,
  servingStatesTable,
] as LakeTable[];
