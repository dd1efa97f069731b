import { localLake } from '../../../data-lake/lake.ts';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../lib/log.ts';
import { EXIT_BUSY, EXIT_SOURCE_REJECTED, pipelineCommand } from '../../../pipeline/cli/pipeline-command.ts';
import { acquireLakeLock } from '../../../data-lake/lake-lock.ts';
import { listRuns } from '../../../data-lake/run-history.ts';
import { demoDefinitions } from '../../support/demo-source/demo-definitions.ts';
import { createDemoLake, type DemoLake } from '../../support/demo-source/demo-lake.ts';
import { promtoolCheckMetrics, promtoolUnavailable } from '../../support/promtool.ts';
import { sampleValue, samplesOf } from '../../support/prometheus-text.ts';

let lake: DemoLake;
beforeEach(async () => {
  lake = await createDemoLake();
});
afterEach(async () => {
  await lake.remove();
});

async function command(env: { METRICS_TEXTFILE?: string } = {}): Promise<{
  code: number;
  out: string[];
  err: string[];
}> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await pipelineCommand({
    config: { ...lake.config, ...env },
    logger: createLogger('silent'),
    definitions: demoDefinitions(lake.sourceDir),
    codeVersion: 'test',
    print: (line) => out.push(line),
    printError: (line) => err.push(line),
  });
  return { code, out, err };
}

describe('npm run pipeline', () => {
  it('exits 0 with a summary when it publishes, and 0 again when nothing changed', async () => {
    const published = await command();
    expect(published.code).toBe(0);
    expect(published.out).toEqual([
      expect.stringMatching(
        /^published snapshot (\S+) \(previous: none\): demo_prices \(6 rows\), demo_region_summary \(2 rows\), quarantine \(0 rows\); first snapshot: building all 3 tables$/,
      ),
    ]);
    const id = /^published snapshot (\S+)/.exec(published.out[0]!)![1];

    expect(await command()).toEqual({ code: 0, out: [`no changes: snapshot ${id} is current`], err: [] });
  });

  it('exits 1 saying nothing was published when the audit blocks the run', async () => {
    await lake.writePrices(['heat-pump,CA,900000', 'heat-pump,NY,900000']);
    const { code, out, err } = await command();
    expect(code).toBe(1);
    expect(out).toEqual([]);
    expect(err).toEqual([
      'pipeline failed, nothing was published (the served snapshot is unchanged): audit blocked the publish: 1 error finding\n' +
        '  - table demo_region_summary, check price-ceiling (2): average price above 100000 USD\n' +
        '      e.g. CA: 900000\n' +
        '      e.g. NY: 900000',
    ]);
  });

  it('exits 4 naming the source, its file and the keys when two records share a key', async () => {
    await lake.writePrices(['heat-pump,CA,14250.50', 'heat-pump,CA,9900', 'induction-stove,NY,1750']);
    const { code, out, err } = await command();
    expect(code).toBe(EXIT_SOURCE_REJECTED);
    expect(out).toEqual([]);
    const [run] = await listRuns(localLake(lake.lakeDir));
    const version = run!.rejectedSources![0]!.version;
    expect(version).toMatch(/^[0-9a-f]{16}$/);
    expect(run).toMatchObject({
      outcome: 'failed',
      rejectedSources: [{ source: 'demo', version, reason: expect.stringContaining('heat-pump/CA') }],
    });
    expect(err).toEqual([
      'pipeline failed, nothing was published (the served snapshot is unchanged): ' +
        `Source "demo" (${lake.sourceDir}): version ${version} cannot be staged completely: ` +
        `1 key names more than one record (1 key of demo-price in ${lake.sourceDir}: heat-pump/CA (the records ` +
        'differ in: priceUsd)). Staging keeps one record per key, so this export is refused rather than staged ' +
        'with records missing; fix it at the source (a record exported twice?). The run used no other version ' +
        'in its place. To publish the other sources meanwhile, built with the published version of this one, ' +
        'run again with SOURCE_FALLBACK=published.',
    ]);
  });

  it('exits 75 (try again later) while another run holds the lake', async () => {
    const other = await acquireLakeLock(lake.lakeDir, { purpose: 'pipeline run' });
    const { code, err } = await command();
    await other.release();
    expect(code).toBe(EXIT_BUSY);
    expect(err[0]).toMatch(/^pipeline not run: the lake is busy: pipeline run \(pid \d+ on /);
  });
});

describe('npm run pipeline with METRICS_TEXTFILE', () => {
  const textfile = () => path.join(lake.lakeDir, 'pipeline.prom');
  const status = (text: string) =>
    Object.fromEntries(
      samplesOf(text, 'electrify_pipeline_last_run_status').map((s) => [s.labels.status, s.value]),
    );

  it("leaves the run's phases, tasks, staged records and audit findings in a node-exporter textfile", async () => {
    const startedAt = Date.now() / 1000;
    expect((await command({ METRICS_TEXTFILE: textfile() })).code).toBe(0);
    const text = await readFile(textfile(), 'utf8');

    expect(status(text)).toEqual({ published: 1, held: 0, unchanged: 0, failed: 0 });
    const phases = samplesOf(text, 'electrify_pipeline_phase_duration_seconds');
    expect(phases.map((p) => p.labels.phase).sort()).toEqual([
      'build',
      'ingest',
      'publish',
      'stage',
      'write',
    ]);
    for (const phase of phases) expect(phase.value).toBeGreaterThanOrEqual(0);
    const total = sampleValue(text, 'electrify_pipeline_last_run_duration_seconds');
    expect(phases.reduce((sum, p) => sum + p.value, 0)).toBeLessThanOrEqual(total);
    expect(sampleValue(text, 'electrify_pipeline_last_run_timestamp_seconds')).toBeGreaterThanOrEqual(
      startedAt,
    );

    expect(sampleValue(text, 'electrify_pipeline_records', { outcome: 'accepted' })).toBe(6);
    expect(sampleValue(text, 'electrify_pipeline_records', { outcome: 'quarantined' })).toBe(0);
    expect(sampleValue(text, 'electrify_pipeline_audit_findings', { severity: 'error' })).toBe(0);
    expect(sampleValue(text, 'electrify_pipeline_audit_findings', { severity: 'warning' })).toBe(0);
    expect(sampleValue(text, 'electrify_pipeline_audit_findings', { severity: 'hold' })).toBe(0);
    expect(sampleValue(text, 'electrify_pipeline_task_units', { task: 'build tables', unit: 'tables' })).toBe(
      3,
    );
    expect(
      sampleValue(text, 'electrify_pipeline_task_units', { task: 'stage records', unit: 'records' }),
    ).toBe(
      7, // 6 prices and the source's version event
    );
    // Only the run's own metrics: node-exporter reports process metrics under its own names.
    expect(samplesOf(text, 'process_cpu_user_seconds_total')).toEqual([]);
  });

  it('says unchanged, and failed with the blocking findings, on the runs after', async () => {
    await command({ METRICS_TEXTFILE: textfile() });
    await command({ METRICS_TEXTFILE: textfile() });
    const unchanged = await readFile(textfile(), 'utf8');
    expect(status(unchanged)).toEqual({ published: 0, held: 0, unchanged: 1, failed: 0 });
    expect(samplesOf(unchanged, 'electrify_pipeline_audit_findings')).toEqual([]);

    await lake.writePrices(['heat-pump,CA,900000', 'heat-pump,NY,900000']);
    expect((await command({ METRICS_TEXTFILE: textfile() })).code).toBe(1);
    const failed = await readFile(textfile(), 'utf8');
    expect(status(failed)).toEqual({ published: 0, held: 0, unchanged: 0, failed: 1 });
    expect(sampleValue(failed, 'electrify_pipeline_audit_findings', { severity: 'error' })).toBe(1);
    expect(sampleValue(failed, 'electrify_pipeline_records', { outcome: 'accepted' })).toBe(2);
  });

  it('counts a rejected source version as a failed run', async () => {
    expect((await command({ METRICS_TEXTFILE: textfile() })).code).toBe(0);
    expect(
      sampleValue(await readFile(textfile(), 'utf8'), 'electrify_pipeline_rejected_source_versions'),
    ).toBe(0);

    await lake.writePrices(['heat-pump,CA,14250.50', 'heat-pump,CA,9900']);
    expect((await command({ METRICS_TEXTFILE: textfile() })).code).toBe(EXIT_SOURCE_REJECTED);
    const failed = await readFile(textfile(), 'utf8');
    expect(status(failed)).toEqual({ published: 0, held: 0, unchanged: 0, failed: 1 });
    expect(sampleValue(failed, 'electrify_pipeline_rejected_source_versions')).toBe(1);
  });

  it('reports a textfile it cannot write without failing the run', async () => {
    const { code, err } = await command({
      METRICS_TEXTFILE: path.join(lake.lakeDir, 'no-such-dir', 'x.prom'),
    });
    expect(code).toBe(0);
    expect(err).toEqual([
      expect.stringMatching(/^pipeline metrics not written to .*no-such-dir\/x\.prom: ENOENT/),
    ]);
  });

  it.skipIf(promtoolUnavailable !== undefined)(
    'writes a file promtool check metrics passes, lint included',
    async () => {
      await command({ METRICS_TEXTFILE: textfile() });
      expect(await promtoolCheckMetrics(await readFile(textfile(), 'utf8'))).toEqual({ code: 0, output: '' });
    },
  );
});
