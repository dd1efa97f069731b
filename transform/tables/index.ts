import type { AnyLakeTable } from './lake-table.ts';
import { healthLakeTables } from './health/index.ts';
import { incentivesLakeTables } from './incentives/index.ts';
import { remLakeTables } from './rem/index.ts';

/**
 * The lake's tables by the family of routes they serve. The incentives family is cheap (seconds) and is
 * published first on a fresh lake; the REM and health families need the simulate stage's precompute.
 */
export const lakeTableFamilies = {
  incentives: incentivesLakeTables,
  rem: remLakeTables,
  health: healthLakeTables,
} as const satisfies Record<string, readonly AnyLakeTable[]>;

/** Every table of the lake; the pipeline orders builds by their declared inputs. */
export const lakeTables: AnyLakeTable[] = Object.values(lakeTableFamilies).flat();
