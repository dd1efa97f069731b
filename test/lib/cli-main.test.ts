import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../lib/config.ts';
import { describeFailure, EXIT_FAILURE, EXIT_USAGE, UsageError } from '../../lib/cli-main.ts';
import { LakeBusyError } from '../../data-lake/lake-lock.ts';
import { UnknownSnapshotError } from '../../data-lake/snapshot-store.ts';
import { LAKE_USER_ERRORS } from '../../data-lake/user-errors.ts';

describe('describeFailure', () => {
  it('prints wrong arguments and settings as their message alone, with the usage exit code', () => {
    expect(describeFailure(new UsageError('gc needs --keep <n>'), [])).toEqual({
      line: 'gc needs --keep <n>',
      exitCode: EXIT_USAGE,
    });
    expect(describeFailure(new ConfigError('PORT', 'must be a number'), [])).toEqual({
      line: 'Invalid environment variable PORT: must be a number',
      exitCode: EXIT_USAGE,
    });
  });

  it('prints an error the command expects as one line, no stack trace, exit code 1', () => {
    expect(describeFailure(new UnknownSnapshotError('nosuch'), LAKE_USER_ERRORS)).toEqual({
      line: 'no snapshot "nosuch" in the lake (see: npm run lake -- list)',
      exitCode: EXIT_FAILURE,
    });
    const busy = new LakeBusyError({
      pid: 4242,
      host: 'worker-1',
      purpose: 'pipeline run',
      startedAt: '2026-11-21T12:00:00.000Z',
    });
    expect(describeFailure(busy, LAKE_USER_ERRORS)).toEqual({
      line:
        'the lake is busy: pipeline run (pid 4242 on worker-1) has held it since ' +
        '2026-11-21T12:00:00.000Z; try again when it finishes',
      exitCode: EXIT_FAILURE,
    });
  });

  it('keeps the stack trace of anything unexpected: a bug needs it', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    const { line, exitCode } = describeFailure(bug, LAKE_USER_ERRORS);
    expect(line).toBe(bug.stack);
    expect(line.split('\n').length).toBeGreaterThan(1);
    expect(exitCode).toBe(EXIT_FAILURE);
    // Expected by one command is not expected by another.
    expect(describeFailure(new UnknownSnapshotError('x'), []).line).toContain('\n    at ');
    expect(describeFailure('a thrown string', [])).toEqual({ line: 'a thrown string', exitCode: 1 });
  });
});
