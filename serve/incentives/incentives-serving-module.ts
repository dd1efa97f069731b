import type { ServingModule } from '../snapshot/serving-module.ts';
import { prepareIncentivesData, type IncentivesData, type IncentivesTables } from './incentives-data.ts';

const TABLES = {
  locations: 'incentives_serving_locations',
  states: 'incentives_serving_states',
  thresholds: 'low_income_thresholds',
  povertyLevels: 'poverty_levels',
  taxBrackets: 'tax_brackets',
  loanPrograms: 'loan_programs',
} as const;

/** Loads the incentives serving tables of a snapshot into memory once; requests then only read maps. */
export const incentivesServingModule: ServingModule<IncentivesData> = {
  name: 'incentives',
  tables: Object.values(TABLES),
  async load(snapshot) {
    const entries = await Promise.all(
      Object.entries(TABLES).map(async ([key, table]) => [key, await snapshot.rows(table)] as const),
    );
    return prepareIncentivesData(Object.fromEntries(entries) as unknown as IncentivesTables);
  },
};
