import { PublishRaceError } from './current-pointer.ts';
import { CorruptSnapshotError, SnapshotNotInStoreError } from './lake.ts';
import { LakeBusyError } from './lake-lock.ts';
import { LakeStoreError } from './store/lake-store.ts';
import { InvalidSnapshotIdError } from './lake-paths.ts';
import { NothingToDiffError } from './diff/lake-diff.ts';
import { HeldRollbackError, NotHeldError, StaleHoldError, UnknownSnapshotError } from './snapshot-store.ts';

/**
 * The lake's errors a person running a command causes or can fix (a mistyped snapshot id, a run holding
 * the lake, a store that cannot be reached): the commands print their message alone, without a stack trace.
 */
export const LAKE_USER_ERRORS = [
  UnknownSnapshotError,
  InvalidSnapshotIdError,
  LakeBusyError,
  NotHeldError,
  StaleHoldError,
  NothingToDiffError,
  PublishRaceError,
  HeldRollbackError,
  SnapshotNotInStoreError,
  CorruptSnapshotError,
  LakeStoreError,
] as const;
