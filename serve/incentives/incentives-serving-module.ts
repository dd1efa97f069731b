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

/**
 * Loads the incentives serving tables of a snapshot into memory once; requests then only read maps.
 * Tables are read one after another: each read runs its own DuckDB instance, and six at once pushed the
 * serving process's resident memory ~150 MB higher (native memory the allocator keeps once touched).
 */
export const incentivesServingModule: ServingModule<IncentivesData> = {
  name: 'incentives',
  tables: Object.values(TABLES),
  async load(snapshot) {
    const tables: Record<string, unknown[]> = {};
    for (const [key, table] of Object.entries(TABLES)) tables[key] = await snapshot.rows(table);
    return prepareIncentivesData(tables as unknown as IncentivesTables);
  },
};
