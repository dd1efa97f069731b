import { Gauge, Registry } from 'prom-client';
import type { Progress } from '../lib/progress.ts';
import type { StaleSource } from '../data-lake/source-freshness.ts';
import { AUDIT_SEVERITIES, type AuditFinding, type SourceFreshness } from '../schemas/lake.ts';
import type { PipelineStep } from './pipeline-step.ts';
import type { ConsumeSummary } from '../transform/transform-consumer.ts';

/**
 * The phase of a run that ends when it reaches each step; the other steps (a staged batch, the promoted
 * snapshot) fall inside the phase that ends next.
 */
const PHASE_ENDED_BY: Partial<Record<PipelineStep, string>> = {
  ingested: 'ingest',
  staged: 'stage',
  built: 'build',
  'snapshot-written': 'write',
  published: 'publish',
};

export type RunOutcome = (
  | { status: 'published' | 'held'; audit: readonly AuditFinding[] }
  | { status: 'unchanged' }
  | { status: 'failed'; audit?: readonly AuditFinding[] }
) & {
  /** Source versions the run rejected (with SOURCE_FALLBACK=published, the run may still have published). */
  rejectedSources?: number;
};

const RUN_STATUSES: readonly RunOutcome['status'][] = ['published', 'held', 'unchanged', 'failed'];

/**
 * The metrics of one pipeline run, for the node-exporter textfile a run leaves behind (METRICS_TEXTFILE): a
 * run lasts seconds to minutes, too short-lived for a scrape to find it, so every value describes the last
 * run, as gauges. No process metrics: node-exporter reports its own under those names.
 */
export class PipelineMetrics {
  readonly registry = new Registry();
  private readonly phases: Gauge<'phase'>;
  private readonly taskSeconds: Gauge<'task' | 'unit'>;
  private readonly taskUnits: Gauge<'task' | 'unit'>;
  private readonly records: Gauge<'outcome'>;
  private readonly findings: Gauge<'severity'>;
  private readonly outcome: Gauge<'status'>;
  private readonly rejectedSources: Gauge;
  private readonly runSeconds: Gauge;
  private readonly finishedAt: Gauge;
  private readonly heldSnapshots: Gauge;
  private readonly sourceChangedAt: Gauge<'source'>;
  private readonly sourceReadAt: Gauge<'source'>;
  private readonly sourceStale: Gauge<'source' | 'reason'>;
  private readonly startedAt: number;
  private phaseStartedAt = 0;

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly wallClock: () => number = Date.now,
  ) {
    this.startedAt = now();
    const gauge = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Gauge<L>({ name, help, labelNames, registers: [this.registry] });
    this.phases = gauge(
      'electrify_pipeline_phase_duration_seconds',
      'Seconds each phase of the last run took (ingest, stage, build: tables, simulate and audits, write, publish)',
      ['phase'],
    );
    this.taskSeconds = gauge(
      'electrify_pipeline_task_duration_seconds',
      'Seconds each long task of the last run took (those with progress lines: reading a source, simulating clusters, …)',
      ['task', 'unit'],
    );
    this.taskUnits = gauge(
      'electrify_pipeline_task_units',
      'Units each long task of the last run handled (files, records, clusters, tables); ÷ its duration: the rate',
      ['task', 'unit'],
    );
    this.records = gauge(
      'electrify_pipeline_records',
      'Records the last run staged: accepted, or quarantined as invalid',
      ['outcome'],
    );
    this.findings = gauge(
      'electrify_pipeline_audit_findings',
      "Findings of the last run's audits by severity (an error fails the run, a hold keeps its snapshot for review); no series when no audit ran",
      ['severity'],
    );
    this.outcome = gauge(
      'electrify_pipeline_last_run_status',
      'How the last run ended: 1 for its status (published, held for review, unchanged or failed), 0 for the others',
      ['status'],
    );
    this.rejectedSources = gauge(
      'electrify_pipeline_rejected_source_versions',
      'Source versions the last run could not read or stage completely (a failed run, unless SOURCE_FALLBACK=published built from the published version)',
      [],
    );
    this.runSeconds = gauge('electrify_pipeline_last_run_duration_seconds', 'Seconds the last run took', []);
    this.finishedAt = gauge(
      'electrify_pipeline_last_run_timestamp_seconds',
      'When the last run ended (Unix time)',
      [],
    );
    this.heldSnapshots = gauge(
      'electrify_lake_held_snapshots',
      'Snapshots written but held for review after the last run (npm run lake -- list): a reason to look',
      [],
    );
    this.sourceChangedAt = gauge(
      'electrify_source_last_change_timestamp_seconds',
      "When each source's content last changed, as the lake's runs saw it (Unix time)",
      ['source'],
    );
    this.sourceReadAt = gauge(
      'electrify_source_last_read_timestamp_seconds',
      'When each source was last read successfully (Unix time)',
      ['source'],
    );
    this.sourceStale = gauge(
      'electrify_source_stale',
      'Whether a source is unchanged, or unread, for longer than SOURCE_STALE_AFTER_DAYS (or its own limit): 1 or 0',
      ['source', 'reason'],
    );
  }

  /** The run reached `step` (RunPipelineOptions.onStep): ends the phase it closes. */
  step(step: PipelineStep): void {
    const at = this.now();
    // The first phase starts once the lake is locked: waiting for another run is no phase's time.
    if (step === 'locked') this.phaseStartedAt = at;
    const phase = PHASE_ENDED_BY[step];
    if (phase === undefined) return;
    this.phases.set({ phase }, (at - this.phaseStartedAt) / 1000);
    this.phaseStartedAt = at;
  }

  /** The run's records staged (after ingest). */
  staged(summary: Pick<ConsumeSummary, 'accepted' | 'quarantined'>): void {
    this.records.set({ outcome: 'accepted' }, summary.accepted);
    this.records.set({ outcome: 'quarantined' }, summary.quarantined);
  }

  /** `progress`, also recording each task's units and duration as it ends. */
  recordTasks(progress: Progress): Progress {
    return {
      start: (task, options) => {
        const inner = progress.start(task, options);
        const startedAt = this.now();
        let units = 0;
        let done = false;
        return {
          tick: (n = 1) => {
            units += n;
            inner.tick(n);
          },
          done: () => {
            inner.done();
            if (done) return;
            done = true;
            const labels = { task, unit: options.unit };
            // A task run twice (staging catches up before and after ingest) adds up.
            this.taskUnits.inc(labels, units);
            this.taskSeconds.inc(labels, (this.now() - startedAt) / 1000);
          },
        };
      },
    };
  }

  /** The lake after the run: snapshots waiting for review, and each source's freshness. */
  lake(state: {
    heldSnapshots: number;
    freshness: Readonly<Record<string, SourceFreshness>>;
    stale: readonly Pick<StaleSource, 'source' | 'reason'>[];
  }): void {
    this.heldSnapshots.set(state.heldSnapshots);
    for (const [source, freshness] of Object.entries(state.freshness)) {
      this.sourceChangedAt.set({ source }, Date.parse(freshness.changedAt) / 1000);
      this.sourceReadAt.set({ source }, Date.parse(freshness.readAt) / 1000);
      for (const reason of ['unchanged', 'unread'] as const) {
        const stale = state.stale.some((s) => s.source === source && s.reason === reason);
        this.sourceStale.set({ source, reason }, stale ? 1 : 0);
      }
    }
  }

  /** The run ended: its status, audit findings (when its audits ran) and duration. */
  finished(outcome: RunOutcome): void {
    for (const status of RUN_STATUSES) this.outcome.set({ status }, status === outcome.status ? 1 : 0);
    const audit = 'audit' in outcome ? outcome.audit : undefined;
    if (audit !== undefined)
      for (const severity of AUDIT_SEVERITIES)
        this.findings.set({ severity }, audit.filter((f) => f.severity === severity).length);
    this.rejectedSources.set(outcome.rejectedSources ?? 0);
    this.runSeconds.set((this.now() - this.startedAt) / 1000);
    this.finishedAt.set(this.wallClock() / 1000);
  }
}
