import {
  prepareIncentivesData,
  preparePlaces,
  type IncentivesData,
  type IncentivesTables,
} from '../../../serve/incentives/incentives-data.ts';
import { buildIncentiveTablesInProcess } from './in-process-lake.ts';
import { fixtureRecords } from './fixture-records.ts';

/** The fixture dataset (or other records) as the serving module holds it in memory. */
export async function fixtureData(records = fixtureRecords()): Promise<IncentivesData> {
  const { tables } = await buildIncentiveTablesInProcess(records);
  const incentivesTables = {
    locations: tables.get('incentives_serving_locations'),
    states: tables.get('incentives_serving_states'),
    thresholds: tables.get('low_income_thresholds'),
    povertyLevels: tables.get('poverty_levels'),
    taxBrackets: tables.get('tax_brackets'),
    loanPrograms: tables.get('loan_programs'),
  } as unknown as IncentivesTables;
  return prepareIncentivesData(incentivesTables, await preparePlaces(incentivesTables));
}
