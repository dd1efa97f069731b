import { writeMetricsTextfile } from '../../lib/metrics/metrics-textfile.ts';
import { createProgress } from '../../lib/progress.ts';
import { AuditFailedError } from '../audit-failed-error.ts';
import { PipelineMetrics, type RunOutcome } from '../pipeline-metrics.ts';
import { IngestError } from '../../ingest/ingest-job.ts';
import {
  runPipeline,
  SourcesRejectedError,
  type PipelineResult,
  type RunPipelineOptions,
} from '../run-pipeline.ts';
import { holdReport } from '../../data-lake/audit/hold-report.ts';
import { PublishRaceError } from '../../data-lake/current-pointer.ts';
import { openLake } from '../../data-lake/lake.ts';
import { LakeBusyError } from '../../data-lake/lake-lock.ts';
import { listSnapshots } from '../../data-lake/snapshot-store.ts';
import { readSourceFreshness, staleSources } from '../../data-lake/source-freshness.ts';

/** Exit code when another run holds the lake or published first (EX_TEMPFAIL: try again later). */
export const EXIT_BUSY = 75;
/** Exit code when the run wrote a snapshot but held it for review: nothing was published. */
export const EXIT_HELD = 3;
/** Exit code when a source's version could not be read or staged completely: nothing was published. */
export const EXIT_SOURCE_REJECTED = 4;

/** What a run's exit code says, for the lines of a scheduled refresh. */
export function exitMeaning(code: number): string {
  if (code === 0) return 'published, or nothing changed';
  if (code === EXIT_HELD) return 'held for review: nothing published (npm run lake -- list, diff, publish)';
  if (code === EXIT_SOURCE_REJECTED)
    return 'failed: a source version was rejected, nothing published (npm run lake -- runs)';
  if (code === EXIT_BUSY) return 'not run: another run holds the lake, or published first';
  return 'failed: nothing published';
}

export interface PipelineCommandOptions extends RunPipelineOptions {
  print: (line: string) => void;
  printError: (line: string) => void;
}

/**
 * One pipeline run as a command: 0 when a snapshot was published or nothing changed, non-zero with a
 * message that says why otherwise (3 when the snapshot is held for review, 4 when a source's version was
 * rejected, 75 when another run is in progress, 1 for another failure).
 */
export async function pipelineCommand(options: PipelineCommandOptions): Promise<number> {
  const { print, printError, ...runOptions } = options;
  const textfile = options.config.METRICS_TEXTFILE;
  const metrics = textfile === undefined ? undefined : new PipelineMetrics();
  const leave = async (outcome: RunOutcome) => {
    if (metrics === undefined || textfile === undefined) return;
    metrics.finished(outcome);
    const lake = openLake(options.config);
    const freshness = await readSourceFreshness(lake);
    metrics.lake({
      heldSnapshots: (await listSnapshots(lake)).filter((s) => s.status === 'held').length,
      freshness,
      stale: staleSources(freshness, options.config.SOURCE_STALE_AFTER_DAYS, new Date()),
    });
    // The run's own outcome stands: a textfile that cannot be written is reported, not made the run's failure.
    await writeMetricsTextfile(textfile, metrics.registry).catch((error: unknown) =>
      printError(`pipeline metrics not written to ${textfile}: ${(error as Error).message}`),
    );
  };
  let result: PipelineResult;
  try {
    result = await runPipeline(metrics === undefined ? runOptions : measured(runOptions, metrics));
  } catch (error) {
    if (error instanceof LakeBusyError) {
      printError(`pipeline not run: ${error.message}`);
      return EXIT_BUSY;
    }
    if (error instanceof PublishRaceError) {
      printError(
        `pipeline not published: ${error.message}. Its snapshot ${error.id} is kept in the lake, held ` +
          '(npm run lake -- list); run the pipeline again to build on what is published now.',
      );
      return EXIT_BUSY;
    }
    const rejected =
      error instanceof SourcesRejectedError ? error.rejected.length : error instanceof IngestError ? 1 : 0;
    await leave({
      status: 'failed',
      ...(error instanceof AuditFailedError ? { audit: error.findings } : {}),
      rejectedSources: rejected,
    });
    options.logger.error({ err: error }, 'pipeline run failed');
    const detail = (error as Error).message;
    if (rejected > 0) {
      printError(
        `pipeline failed, nothing was published (the served snapshot is unchanged): ${detail} ` +
          'The run used no other version in its place. To publish the other sources meanwhile, built with ' +
          'the published version of this one, run again with SOURCE_FALLBACK=published.',
      );
      return EXIT_SOURCE_REJECTED;
    }
    printError(`pipeline failed, nothing was published (the served snapshot is unchanged): ${detail}`);
    return 1;
  }
  for (const f of result.fallbacks ?? []) {
    printError(
      `source ${f.source}: ${f.instead.reason} This run built from the published version ${f.version} ` +
        'instead (SOURCE_FALLBACK=published).',
    );
  }
  const rejectedSources = result.fallbacks?.length ?? 0;
  if (result.status === 'unchanged') {
    await leave({ status: 'unchanged', rejectedSources });
    print(`no changes: snapshot ${result.snapshotId} is current`);
    return 0;
  }
  if (result.status === 'held') {
    await leave({ status: 'held', audit: result.manifest.audit, rejectedSources });
    if (result.rebuild !== null) print(result.rebuild);
    printError(holdReport(result.manifest));
    return EXIT_HELD;
  }
  await leave({ status: 'published', audit: result.manifest.audit, rejectedSources });
  const tables = Object.entries(result.manifest.tables)
    .map(([name, table]) => `${name} (${table.rows} rows)`)
    .join(', ');
  // One paragraph: what is served now, and why the run built what it built.
  print(
    `published snapshot ${result.snapshotId} (previous: ${result.previous ?? 'none'}): ${tables}; ` +
      result.rebuild,
  );
  return 0;
}

/** The run's options with its steps, staged records and long tasks also recorded in `metrics`. */
function measured(options: RunPipelineOptions, metrics: PipelineMetrics): RunPipelineOptions {
  return {
    ...options,
    progress: metrics.recordTasks(options.progress ?? createProgress({ logger: options.logger })),
    onStep: async (step) => {
      metrics.step(step);
      await options.onStep?.(step);
    },
    onStaged: (summary) => {
      metrics.staged(summary);
      options.onStaged?.(summary);
    },
  };
}
