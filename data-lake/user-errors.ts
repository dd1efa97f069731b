import { LakeBusyError } from './lake-lock.ts';
import { InvalidSnapshotIdError } from './lake-paths.ts';
import { NothingToDiffError } from './diff/lake-diff.ts';
import { NotHeldError, StaleHoldError, UnknownSnapshotError } from './snapshot-store.ts';

/**
 * The lake's errors a person running a command causes or can fix (a mistyped snapshot id, a run holding
 * the lake): the commands that take ids or the lock print their message alone, without a stack trace.
 */
export const LAKE_USER_ERRORS = [
  UnknownSnapshotError,
  InvalidSnapshotIdError,
  LakeBusyError,
  NotHeldError,
  StaleHoldError,
  NothingToDiffError,
] as const;
