import { ConfigError } from './config.ts';

/** Exit code of a command that could not start because its arguments or settings are wrong. */
export const EXIT_USAGE = 2;
/** Exit code of a command stopped by an expected failure (an unknown id, a busy lake): not a bug. */
export const EXIT_FAILURE = 1;

/** A class of errors, matched with instanceof. */
export type ErrorClass = abstract new (...args: never[]) => Error;

export interface MainOptions {
  /**
   * Errors a person running the command causes or can fix (an unknown snapshot id, a busy lake): their
   * message is the whole story, so they get one line and no stack trace, like wrong arguments.
   */
  expected?: readonly ErrorClass[];
}

/**
 * Runs a CLI's main function and sets the exit code it returns. Wrong settings or arguments, and the
 * errors `expected` names, are printed as one line on stderr with a non-zero exit code; anything else
 * (a bug) with its stack trace.
 */
export function runMain(main: () => Promise<number>, options: MainOptions = {}): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      const { line, exitCode } = describeFailure(error, options.expected ?? []);
      console.error(line);
      process.exitCode = exitCode;
    },
  );
}

/** What a CLI prints on stderr for an error its main function threw, and the exit code it ends with. */
export function describeFailure(
  error: unknown,
  expected: readonly ErrorClass[],
): { line: string; exitCode: number } {
  if (error instanceof ConfigError || error instanceof UsageError) {
    return { line: error.message, exitCode: EXIT_USAGE };
  }
  if (error instanceof Error && expected.some((kind) => error instanceof kind)) {
    return { line: error.message, exitCode: EXIT_FAILURE };
  }
  return {
    line: error instanceof Error ? (error.stack ?? error.message) : String(error),
    exitCode: EXIT_FAILURE,
  };
}

/** Wrong command-line arguments: the message says what is expected. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
