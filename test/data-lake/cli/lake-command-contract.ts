import { existsSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLake } from '../../../data-lake/lake.ts';
import { UsageError } from '../../../lib/cli-main.ts';
import { lakeCommand, type LakeCommandContext } from '../../../data-lake/cli/lake-command.ts';
import { readCurrent } from '../../../data-lake/current-pointer.ts';
import { acquireLakeLock, LakeBusyError } from '../../../data-lake/lake-lock.ts';
import {
  HeldRollbackError,
  listSnapshots,
  NotHeldError,
  StaleHoldError,
  UnknownSnapshotError,
} from '../../../data-lake/snapshot-store.ts';
import { sqlCommand } from '../../../data-lake/cli/sql-command.ts';
import { createLogger } from '../../../lib/log.ts';
import type { Progress } from '../../../lib/progress.ts';
import { pipelineCommand } from '../../../pipeline/cli/pipeline-command.ts';
import { demoDefinitions } from '../../support/demo-source/demo-definitions.ts';
import { listRuns } from '../../../data-lake/run-history.ts';
import type { RunRecord } from '../../../schemas/lake.ts';
import type { PipelineResult } from '../../../pipeline/run-pipeline.ts';
import { createDemoLake, type DemoLake } from '../../support/demo-source/demo-lake.ts';

/**
 * The lake commands (list, show, diff, publish --reason, runs, rollback, gc) and what they rely on, on a lake
 * in any back end: run by lake-command.test.ts on a directory and by lake-command-s3.test.ts on S3.
 * `lakeUrl` gives each test its own remote lake (undefined: the demo lake's directory).
 */
export function lakeCommandContract(backend: string, lakeUrl: () => string | undefined): void {
  let lake: DemoLake;
  let snapshots: string[];

  /** The command's context: the demo lake, a fixed operator and clock. */
  const context = (): LakeCommandContext => ({
    lake: openLake(lake.config),
    sourceStaleAfterDays: 90,
    operator: () => 'dana',
    now: () => new Date('2026-11-05T10:00:00.000Z'),
  });

  /** Runs `npm run lake -- <args>` in process and returns what it printed. */
  async function lakeCli(...args: string[]): Promise<string> {
    const printed: string[] = [];
    const code = await lakeCommand(args, context(), { print: (text) => printed.push(text) });
    expect(code).toBe(0);
    return printed.join('\n');
  }

  function published(result: PipelineResult): string {
    if (result.status !== 'published') throw new Error('expected a publish');
    return result.snapshotId;
  }

  beforeEach(async () => {
    lake = await createDemoLake({ lakeUrl: lakeUrl() });
    snapshots = [published(await lake.run({ now: () => new Date('2026-11-01T10:00:00.000Z') }))];
    await lake.writePrices(['heat-pump,CA,14000', 'heat-pump,NY,13000']);
    snapshots.push(published(await lake.run({ now: () => new Date('2026-11-02T10:00:00.000Z') })));
    await lake.writePrices(['heat-pump,CA,14500', 'heat-pump,NY,13500', 'induction-stove,NY,1700']);
    snapshots.push(published(await lake.run({ now: () => new Date('2026-11-03T10:00:00.000Z') })));
  });
  afterEach(async () => {
    await lake.remove();
  });

  describe(`npm run lake (${backend})`, () => {
    it('lists snapshots newest first and marks the published one', async () => {
      const [first, second, third] = snapshots as [string, string, string];
      expect(await lakeCli('list')).toBe(
        [
          'status  | id                           | created                  | tables | rows | parent',
          '--------+------------------------------+--------------------------+--------+------+-----------------------------',
          `current | ${third} | 2026-11-03T10:00:00.000Z | 3      | 5    | ${second}`,
          `        | ${second} | 2026-11-02T10:00:00.000Z | 3      | 4    | ${first}`,
          `        | ${first} | 2026-11-01T10:00:00.000Z | 3      | 8    | -`,
          '(3 rows)',
        ].join('\n'),
      );
    });

    it('keeps its snapshots in the lake’s store, and queries the published one with npm run sql', async () => {
      const manifests = (await openLake(lake.config).store.list('snapshots/')).filter((key) =>
        key.endsWith('/manifest.json'),
      );
      expect(manifests).toEqual(snapshots.map((id) => `snapshots/${id}/manifest.json`).sort());
      // A remote lake's files are only in this machine's cache: nothing is written beside them as a lake.
      expect(existsSync(path.join(lake.lakeDir, 'snapshots'))).toBe(lake.config.LAKE_URL === undefined);

      const out: string[] = [];
      const stdout = new PassThrough().on('data', (chunk: Buffer) => out.push(chunk.toString()));
      const code = await sqlCommand(
        ['-c', 'SELECT region, count(*) AS items FROM demo_prices GROUP BY region ORDER BY region'],
        openLake(lake.config),
        { stdin: new PassThrough(), stdout, stderr: new PassThrough() },
      );
      expect(code).toBe(0);
      expect(out.join('')).toBe(
        ['region | items', '-------+------', 'CA     | 1', 'NY     | 2', '(2 rows)', ''].join('\n'),
      );
    });

    it('lets one of two pipelines racing to publish win; the other exits 75 and loses nothing', async () => {
      await lake.writePrices(['heat-pump,CA,14700', 'heat-pump,NY,13500', 'induction-stove,NY,1700']);
      // Run A stops just before it would publish, while run B, on another host (a remote lake) or this
      // one (a directory lake: the same working directory), runs whole.
      let resumeA!: () => void;
      let aPaused!: () => void;
      const paused = new Promise<void>((resolve) => (aPaused = resolve));
      const printed: string[] = [];
      const command = (config: typeof lake.config, onStep?: (step: string) => Promise<void>) =>
        pipelineCommand({
          config,
          logger: createLogger('silent'),
          definitions: demoDefinitions(lake.sourceDir),
          codeVersion: 'test',
          ...(onStep ? { onStep } : {}),
          print: () => undefined,
          printError: (line) => printed.push(line),
        });
      const a = command(lake.config, async (step) => {
        if (step !== 'snapshot-promoted') return;
        aPaused();
        await new Promise<void>((resolve) => (resumeA = resolve));
      });
      await paused;
      const otherHost =
        lake.config.LAKE_URL === undefined
          ? lake.config
          : { ...lake.config, LAKE_DIR: `${lake.lakeDir}-host-b` };
      const b = await command(otherHost);
      resumeA();
      const codes = [await a, b];

      expect(codes.sort()).toEqual([0, 75]);
      const current = await readCurrent(openLake(lake.config));
      const listed = await listSnapshots(openLake(lake.config));
      if (lake.config.LAKE_URL === undefined) {
        // One working directory: B found the lake busy and built nothing; A published.
        expect(printed).toEqual([expect.stringMatching(/^pipeline not run: the lake is busy: pipeline run/)]);
        expect(listed).toHaveLength(4);
      } else {
        // Two hosts: B published first; A's swap of CURRENT failed, and its snapshot is kept, held.
        expect(printed).toEqual([
          expect.stringMatching(
            new RegExp(
              `^pipeline not published: snapshot (\\S+) was not published: CURRENT moved to ${current} `,
            ),
          ),
        ]);
        const loser = /snapshot (\S+) was not published/.exec(printed[0]!)![1];
        expect(listed.find((s) => s.id === loser)).toMatchObject({ status: 'held' });
        expect(listed.find((s) => s.id === current)).toMatchObject({ status: 'current' });
        expect(listed).toHaveLength(5);
        await expect(
          lakeCommand(['publish', loser!, '--reason', 'mine'], context(), { print: () => undefined }),
        ).rejects.toThrow(StaleHoldError);
      }
      expect(current).not.toBe(snapshots[2]);
    });

    it('shows a manifest, the published one by default', async () => {
      const current = JSON.parse(await lakeCli('show'));
      expect(current.id).toBe(snapshots[2]);
      const older = JSON.parse(await lakeCli('show', snapshots[0]!));
      expect(older).toMatchObject({ id: snapshots[0], parent: null });
      expect(older.tables.demo_prices.rows).toBe(6);
    });

    it('rolls CURRENT back to an older snapshot; the next run publishes the newest data again', async () => {
      expect(await lakeCli('rollback', snapshots[0]!)).toBe(
        `CURRENT now names ${snapshots[0]} (was ${snapshots[2]})`,
      );
      expect(await readCurrent(openLake(lake.config))).toBe(snapshots[0]);

      const next = await lake.run();
      expect(next.status === 'published' && next.manifest.parent).toBe(snapshots[0]);
    });

    it('collects garbage keeping the n newest and always the published one', async () => {
      await lakeCli('rollback', snapshots[0]!);
      expect(await lakeCli('gc', '--keep', '1')).toBe(`deleted 1: ${snapshots[1]}`);
      expect((await lakeCli('list')).split('\n')).toHaveLength(5);
      expect(await lakeCli('gc', '--keep', '0')).toBe(`deleted 1: ${snapshots[2]}`);
      expect(await readCurrent(openLake(lake.config))).toBe(snapshots[0]);
      expect(await lakeCli('gc', '--keep', '0')).toBe('nothing to delete');
    });

    it('says what is wrong with a bad command, and waits for nobody while a run holds the lake', async () => {
      const io = { print: () => undefined };
      await expect(lakeCommand(['show', 'no-such-snapshot'], context(), io)).rejects.toThrow(
        UnknownSnapshotError,
      );
      await expect(lakeCommand(['rollback'], context(), io)).rejects.toThrow('rollback needs a snapshot id');
      await expect(lakeCommand(['gc'], context(), io)).rejects.toThrow('gc needs --keep <n>');
      await expect(lakeCommand(['gc', '--keep', '-1'], context(), io)).rejects.toThrow(UsageError);
      await expect(lakeCommand(['prune'], context(), io)).rejects.toThrow('unknown command "prune"');

      const run = await acquireLakeLock(lake.lakeDir, { purpose: 'pipeline run' });
      await expect(lakeCommand(['rollback', snapshots[0]!], context(), io)).rejects.toThrow(LakeBusyError);
      await run.release();
      expect(await readCurrent(openLake(lake.config))).toBe(snapshots[2]);
    });

    describe('reviewing a held snapshot', () => {
      /** New York's prices gone: the next run holds its snapshot. */
      async function holdNewYork(): Promise<string> {
        await lake.writePrices(['heat-pump,CA,14500', 'induction-stove,CA,1800']);
        const held = await lake.run({ now: () => new Date('2026-11-04T10:00:00.000Z') });
        expect(held.status).toBe('held');
        return held.snapshotId;
      }

      it('lists it as held, beside the published one', async () => {
        const held = await holdNewYork();
        expect((await lakeCli('list')).split('\n').slice(2, 4)).toEqual([
          `held    | ${held} | 2026-11-04T10:00:00.000Z | 3      | 3    | ${snapshots[2]}`,
          `current | ${snapshots[2]} | 2026-11-03T10:00:00.000Z | 3      | 5    | ${snapshots[1]}`,
        ]);
      });

      it('shows a step per table it compares, none for a table whose file is the same', async () => {
        await holdNewYork();
        const steps: string[] = [];
        const progress: Progress = {
          start: (step, { total, unit }) => {
            steps.push(`${step}: ${total} ${unit}`);
            return { tick: () => undefined, done: () => steps.push(`${step} done`) };
          },
        };
        const code = await lakeCommand(['diff'], { ...context(), progress }, { print: () => undefined });
        expect(code).toBe(0);
        expect(steps).toEqual([
          'compare demo_prices: 5 rows',
          'compare demo_prices done',
          'compare demo_region_summary: 3 rows',
          'compare demo_region_summary done',
        ]);
      });

      it('diffs it against CURRENT by default: rows by key, counts per partition, unchanged tables unread', async () => {
        const held = await holdNewYork();
        expect(await lakeCli('diff')).toBe(
          [
            `snapshot ${held} (held) against ${snapshots[2]} (current)`,
            '',
            'demo_prices: 3 → 2 rows: +1 added, −2 removed, ~0 changed (by item, region)',
            '  per partition: NY 2 → 0, CA 1 → 2',
            '  added, e.g.: induction-stove | CA',
            '  removed, e.g.: heat-pump | NY; induction-stove | NY',
            'demo_region_summary: 2 → 1 rows: +0 added, −1 removed, ~1 changed (by region)',
            '  removed, e.g.: NY',
            '  changed, e.g.: CA',
            '',
            'unchanged (the same file, not read): quarantine',
          ].join('\n'),
        );
        const json = JSON.parse(await lakeCli('diff', held, snapshots[2]!, '--json'));
        expect(json.tables.find((t: { table: string }) => t.table === 'demo_prices')).toMatchObject({
          status: 'changed',
          added: 1,
          removed: 2,
          changed: 0,
          partitions: [
            { partition: 'NY', before: 2, after: 0 },
            { partition: 'CA', before: 1, after: 2 },
          ],
        });
        expect(json.incentives).toBeNull();
      });

      it('publishes it only with a reason, recording the operator; a second publish is refused', async () => {
        const held = await holdNewYork();
        await expect(lakeCommand(['publish', held], context(), { print: () => undefined })).rejects.toThrow(
          'publish needs --reason',
        );
        expect(await lakeCli('publish', held, '--reason', 'NY supplier stopped')).toBe(
          `published ${held} after review by dana (was ${snapshots[2]}): NY supplier stopped`,
        );
        expect(await readCurrent(openLake(lake.config))).toBe(held);
        expect(JSON.parse(await lakeCli('show')).review).toEqual({
          publishedAt: '2026-11-05T10:00:00.000Z',
          operator: 'dana',
          reason: 'NY supplier stopped',
        });
        await expect(
          lakeCommand(['publish', held, '--reason', 'again'], context(), { print: () => undefined }),
        ).rejects.toThrow(NotHeldError);
      });

      it('refuses to roll back to a held snapshot: it is published after review or not at all', async () => {
        const held = await holdNewYork();
        await expect(lakeCommand(['rollback', held], context(), { print: () => undefined })).rejects.toThrow(
          HeldRollbackError,
        );
        expect(await readCurrent(openLake(lake.config))).toBe(snapshots[2]);
      });

      it('refuses a held snapshot audited against another CURRENT than today’s', async () => {
        const held = await holdNewYork();
        await lakeCli('rollback', snapshots[1]!);
        await expect(
          lakeCommand(['publish', held, '--reason', 'ok'], context(), { print: () => undefined }),
        ).rejects.toThrow(
          `snapshot ${held} was audited against ${snapshots[2]}, but CURRENT is now ${snapshots[1]}: run the pipeline again so its audits compare with what is published`,
        );
      });

      it('lists the runs, newest first, with the sources and their freshness', async () => {
        const held = await holdNewYork();
        const lines = (await lakeCli('runs')).split('\n');
        expect(lines[0]).toMatch(/^started +\| trigger \| outcome +\| seconds \| snapshot/);
        expect(lines[2]).toContain(`| manual  | held      |`);
        expect(lines[2]).toContain(`| ${held} | demo`);
        expect(lines[2]).toContain('| 0 error, 1 hold, 0 warning |');
        expect(lines.filter((line) => line.includes('| manual  | published |'))).toHaveLength(3);
        expect(lines.at(-2)).toBe(
          'demo   | 2026-11-04T10:00:00.000Z | 2026-11-04T10:00:00.000Z |              |',
        );
        const json = JSON.parse(await lakeCli('runs', '--json', '--limit', '1'));
        expect(json.runs).toHaveLength(1);
        expect(json.runs[0]).toMatchObject({ outcome: 'held', snapshot: held, findings: { hold: 1 } });
        expect(Object.keys(json.sourceFreshness)).toEqual(['demo']);
      });

      it('lists the source versions runs rejected, and why, with the first line of a failed run’s reason', async () => {
        await lake.writePrices(['heat-pump,CA,14500', 'heat-pump,CA,9900']);
        await expect(lake.run({ now: () => new Date('2026-11-04T10:00:00.000Z') })).rejects.toThrow(
          'cannot be staged completely',
        );
        await lake.writePrices(['heat-pump,CA,900000', 'heat-pump,NY,900000']);
        await expect(lake.run({ now: () => new Date('2026-11-05T10:00:00.000Z') })).rejects.toThrow(
          'audit blocked the publish',
        );
        const [refused, duplicated] = (await listRuns(openLake(lake.config))) as [RunRecord, RunRecord];

        const lines = (await lakeCli('runs')).split('\n');
        expect(lines[2]).toMatch(/\| failed +\| .* \| audit blocked the publish: 1 error finding$/);
        const rejected = lines.slice(
          lines.indexOf('rejected source versions:') + 1,
          lines.indexOf('rejected source versions:') + 3,
        );
        expect(rejected).toEqual([
          `- run of 2026-11-05T10:00:00.000Z: demo ${refused.rejectedSources![0]!.version}: refused with the run: ` +
            'audit blocked the publish: 1 error finding',
          `- run of 2026-11-04T10:00:00.000Z: demo ${duplicated.rejectedSources![0]!.version}: Source "demo" ` +
            `(${lake.sourceDir}): version ${duplicated.rejectedSources![0]!.version} cannot be staged completely: ` +
            `1 key names more than one record (1 key of demo-price in ${lake.sourceDir}: heat-pump/CA (the records ` +
            'differ in: priceUsd)). Staging keeps one record per key, so this export is refused rather than staged ' +
            'with records missing; fix it at the source (a record exported twice?).',
        ]);
      });
    });
  });
}
