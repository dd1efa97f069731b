import {
  LOAN_PROGRAMS,
  LOW_INCOME_THRESHOLDS,
  POVERTY_LEVELS,
  SERVING_LOCATIONS,
  SERVING_STATES,
  TAX_BRACKETS,
} from '../../data-lake/tables/incentives.ts';
import { lowIncomeThresholdRecordSchema } from '../../schemas/incentives/records.ts';
import { REM_ZIP_COUNTIES } from '../../data-lake/tables/rem.ts';
import { readTable, type SnapshotReader } from '../../data-lake/snapshot-reader.ts';
import { sameTables, tableEntries, type SnapshotLoader } from '../snapshot/snapshot-loader.ts';
import { prepareIncentivesData, preparePlaces, type IncentivesData, type Places } from './incentives-data.ts';

const REQUIRED = [
  SERVING_LOCATIONS,
  SERVING_STATES,
  LOW_INCOME_THRESHOLDS,
  POVERTY_LEVELS,
  TAX_BRACKETS,
  LOAN_PROGRAMS,
];

/**
 * What the places are made from. They are most of the module's load (every ZIP of the country), and a
 * publish that changes incentives, or a rollback of one, leaves these tables as they were.
 */
const PLACE_TABLES = [SERVING_LOCATIONS, REM_ZIP_COUNTIES];

async function loadPlaces(snapshot: SnapshotReader): Promise<Places> {
  return preparePlaces({
    locations: await readTable(snapshot, SERVING_LOCATIONS),
    // Optional: with every US ZIP's state, an address whose ZIP contradicts its state, or a ZIP of a
    // state the incentives data does not cover, is told so rather than "no location".
    ...(REM_ZIP_COUNTIES.name in snapshot.manifest.tables
      ? { zipCounties: await readTable(snapshot, REM_ZIP_COUNTIES) }
      : {}),
  });
}

/** The places of loaded data, only they: nothing else of an older snapshot's data reaches the new one. */
const placesOf = ({ locations, locationStates, zipStates }: IncentivesData): Places => ({
  locations,
  locationStates,
  zipStates,
});

/**
 * Loads the incentives serving tables of a snapshot into memory once; requests then only read maps.
 * Tables are read one after another: each read runs its own DuckDB instance, and reading them all at once
 * raises the serving process's resident memory for good (native memory the allocator keeps once touched).
 */
export const incentivesLoader: SnapshotLoader<IncentivesData> = {
  name: 'incentives',
  tables: REQUIRED,
  madeFrom: (manifest) => tableEntries(manifest, [...REQUIRED, REM_ZIP_COUNTIES]),
  async load(snapshot, served) {
    const places =
      served !== undefined && sameTables(snapshot.manifest, served.manifest, PLACE_TABLES)
        ? placesOf(served.data)
        : await loadPlaces(snapshot);
    return prepareIncentivesData(
      {
        states: await readTable(snapshot, SERVING_STATES),
        // The lake keeps each threshold's type-specific figures as JSON: parsed by type here (a missing
        // description comes back from Parquet as null).
        thresholds: (await readTable(snapshot, LOW_INCOME_THRESHOLDS)).map((row) =>
          lowIncomeThresholdRecordSchema.parse({ ...row, description: row.description ?? undefined }),
        ),
        povertyLevels: await readTable(snapshot, POVERTY_LEVELS),
        taxBrackets: await readTable(snapshot, TAX_BRACKETS),
        loanPrograms: await readTable(snapshot, LOAN_PROGRAMS),
      },
      places,
    );
  },
};
