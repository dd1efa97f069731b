import { ConfigError } from './config.ts';

/** Exit code of a command that could not start because its arguments or settings are wrong. */
export const EXIT_USAGE = 2;

/**
 * Runs a CLI's main function and sets the exit code it returns. Anything it throws is printed as one
 * clear line on stderr (no stack trace for wrong settings) with a non-zero exit code.
 */
export function runMain(main: () => Promise<number>): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      if (error instanceof ConfigError || error instanceof UsageError) {
        console.error(error.message);
        process.exitCode = EXIT_USAGE;
      } else {
        console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
        process.exitCode = 1;
      }
    },
  );
}

/** Wrong command-line arguments: the message says what is expected. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
