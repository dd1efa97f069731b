import { AuditFailedError } from '../pipeline/audit-failed-error.ts';
import { runPipeline, type RunPipelineOptions } from '../pipeline/run-pipeline.ts';
import { LakeBusyError } from '../lake/lake-lock.ts';

/** Exit code when another run holds the lake (EX_TEMPFAIL: try again later). */
export const EXIT_BUSY = 75;

export interface PipelineCommandOptions extends RunPipelineOptions {
  print: (line: string) => void;
  printError: (line: string) => void;
}

/**
 * One pipeline run as a command: 0 when a snapshot was published or nothing changed, non-zero with a
 * message that says why otherwise (75 when another run is in progress, 1 for a failed run).
 */
export async function pipelineCommand(options: PipelineCommandOptions): Promise<number> {
  const { print, printError, ...runOptions } = options;
  try {
    const result = await runPipeline(runOptions);
    if (result.status === 'unchanged') {
      print(`no changes: snapshot ${result.snapshotId} is current`);
      return 0;
    }
    const tables = Object.entries(result.manifest.tables)
      .map(([name, table]) => `${name} (${table.rows} rows)`)
      .join(', ');
    print(result.rebuild);
    print(`published snapshot ${result.snapshotId} (previous: ${result.previous ?? 'none'}): ${tables}`);
    return 0;
  } catch (error) {
    if (error instanceof LakeBusyError) {
      printError(`pipeline not run: ${error.message}`);
      return EXIT_BUSY;
    }
    options.logger.error({ err: error }, 'pipeline run failed');
    const detail = error instanceof AuditFailedError ? error.message : (error as Error).message;
    printError(`pipeline failed, nothing was published (the served snapshot is unchanged): ${detail}`);
    return 1;
  }
}
