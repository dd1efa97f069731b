import type { LakeTable } from './lake-table.ts';
import { healthLakeTables } from './health/index.ts';
import { incentivesLakeTables } from './incentives/index.ts';
import { remLakeTables } from './rem/index.ts';

/** Every table of the lake; the pipeline orders builds by their declared inputs. */
export const lakeTables: LakeTable[] = [...incentivesLakeTables, ...remLakeTables, ...healthLakeTables];
