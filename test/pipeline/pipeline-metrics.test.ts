import { describe, expect, it } from 'vitest';
import type { Progress } from '../../lib/progress.ts';
import { PipelineMetrics } from '../../pipeline/pipeline-metrics.ts';
import { sampleValue, samplesOf } from '../support/prometheus-text.ts';

/** A clock the test moves by hand (milliseconds). */
const manualClock = () => {
  let at = 0;
  return { now: () => at, advance: (ms: number) => void (at += ms) };
};

const quietProgress: Progress = { start: () => ({ tick: () => {}, done: () => {} }) };

describe('PipelineMetrics', () => {
  it('times each phase from the step that ended the one before, counting passing steps in the next phase', async () => {
    const clock = manualClock();
    const metrics = new PipelineMetrics(clock.now, () => Date.parse('2026-11-23T12:00:00.000Z'));
    clock.advance(200); // waiting for the lock counts in the run, not in a phase
    metrics.step('locked');
    clock.advance(1500);
    metrics.step('ingested');
    clock.advance(300);
    metrics.step('batch-staged');
    clock.advance(400);
    metrics.step('staged');
    clock.advance(12_000);
    metrics.step('built');
    clock.advance(800);
    metrics.step('snapshot-written');
    clock.advance(50);
    metrics.step('snapshot-promoted');
    clock.advance(25);
    metrics.step('published');
    metrics.finished({ status: 'published', audit: [] });

    const text = await metrics.registry.metrics();
    const phases = Object.fromEntries(
      samplesOf(text, 'electrify_pipeline_phase_duration_seconds').map((s) => [s.labels.phase, s.value]),
    );
    expect(phases).toEqual({ ingest: 1.5, stage: 0.7, build: 12, write: 0.8, publish: 0.075 });
    expect(sampleValue(text, 'electrify_pipeline_last_run_duration_seconds')).toBe(15.275);
    expect(sampleValue(text, 'electrify_pipeline_last_run_timestamp_seconds')).toBe(1795435200);
  });

  it('adds up the units and time of a task run twice, each counted once however often done is called', async () => {
    const clock = manualClock();
    const metrics = new PipelineMetrics(clock.now);
    const progress = metrics.recordTasks(quietProgress);
    for (const records of [0, 7]) {
      const task = progress.start('stage records', { unit: 'records' });
      for (let i = 0; i < records; i++) task.tick();
      clock.advance(250);
      task.done();
      task.done();
    }
    const simulate = progress.start('simulate clusters', { total: 40, unit: 'clusters' });
    simulate.tick(40);
    clock.advance(8000);
    simulate.done();

    const text = await metrics.registry.metrics();
    const stage = { task: 'stage records', unit: 'records' };
    expect(sampleValue(text, 'electrify_pipeline_task_units', stage)).toBe(7);
    expect(sampleValue(text, 'electrify_pipeline_task_duration_seconds', stage)).toBe(0.5);
    const clusters = { task: 'simulate clusters', unit: 'clusters' };
    expect(sampleValue(text, 'electrify_pipeline_task_units', clusters)).toBe(40);
    expect(sampleValue(text, 'electrify_pipeline_task_duration_seconds', clusters)).toBe(8);
  });

  it('counts audit findings by severity, and staged records by outcome', async () => {
    const metrics = new PipelineMetrics();
    metrics.staged({ accepted: 41_978, quarantined: 12 });
    const finding = { table: 'rem_counties', check: 'far-station', message: 'far from its station' };
    metrics.finished({
      status: 'failed',
      audit: [
        { ...finding, severity: 'warning' },
        { ...finding, severity: 'warning', check: 'no-rate' },
        { ...finding, severity: 'error', check: 'unknown-county' },
      ],
    });
    const text = await metrics.registry.metrics();
    expect(sampleValue(text, 'electrify_pipeline_records', { outcome: 'accepted' })).toBe(41_978);
    expect(sampleValue(text, 'electrify_pipeline_records', { outcome: 'quarantined' })).toBe(12);
    expect(sampleValue(text, 'electrify_pipeline_audit_findings', { severity: 'error' })).toBe(1);
    expect(sampleValue(text, 'electrify_pipeline_audit_findings', { severity: 'warning' })).toBe(2);
    expect(sampleValue(text, 'electrify_pipeline_last_run_status', { status: 'failed' })).toBe(1);
  });

  it('reports the snapshots held for review and each source’s last change, last read and staleness', async () => {
    const metrics = new PipelineMetrics();
    metrics.finished({ status: 'held', audit: [] });
    metrics.lake({
      heldSnapshots: 1,
      freshness: {
        incentives: {
          contentHash: 'a1',
          changedAt: '2026-06-01T00:00:00.000Z',
          readAt: '2026-11-27T06:00:00.000Z',
        },
      },
      stale: [{ source: 'incentives', reason: 'unchanged' }],
    });
    const text = await metrics.registry.metrics();
    expect(sampleValue(text, 'electrify_pipeline_last_run_status', { status: 'held' })).toBe(1);
    expect(sampleValue(text, 'electrify_lake_held_snapshots')).toBe(1);
    expect(
      sampleValue(text, 'electrify_source_last_change_timestamp_seconds', { source: 'incentives' }),
    ).toBe(Date.parse('2026-06-01T00:00:00.000Z') / 1000);
    expect(sampleValue(text, 'electrify_source_last_read_timestamp_seconds', { source: 'incentives' })).toBe(
      Date.parse('2026-11-27T06:00:00.000Z') / 1000,
    );
    expect(samplesOf(text, 'electrify_source_stale').map((s) => [s.labels.reason, s.value])).toEqual([
      ['unchanged', 1],
      ['unread', 0],
    ]);
  });
});
