import { localLake } from '../../data-lake/lake.ts';
import { cp, mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { diffLake } from '../../data-lake/diff/lake-diff.ts';
import { readCurrent } from '../../data-lake/current-pointer.ts';
import { snapshotDir } from '../../data-lake/lake-paths.ts';
import { readManifest } from '../../data-lake/manifest-file.ts';
import { DuplicateKeysError, IngestError } from '../../ingest/ingest-job.ts';
import { loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/log.ts';
import type { IncentiveRecord } from '../../schemas/incentives/records.ts';
import { createIncentivesApi } from '../../serve/incentives/incentives-api.ts';
import { defaultDefinitions } from '../../pipeline/definitions.ts';
import { AuditFailedError } from '../../pipeline/audit-failed-error.ts';
import { listRuns } from '../../data-lake/run-history.ts';
import { EXIT_SOURCE_REJECTED, pipelineCommand } from '../../pipeline/cli/pipeline-command.ts';
import { runPipeline, type PipelineResult } from '../../pipeline/run-pipeline.ts';
import { startServer } from './serve-lake-fixture.ts';

/**
 * The ways an upstream export of the incentive data breaks, applied to a copy of a source in the upstream
 * layout (data/<STATE>/incentives.json, …): each run must fail or be held, CURRENT and what is served must
 * not change, and a held snapshot's diff must name the state; an ordinary update must still publish and an
 * unchanged run publish nothing. Run on the project's sample data by `npm test` and on the national data
 * (../shared/ra-data) by `npm run test:real-data`.
 */
export interface BreakageSetup {
  /** The incentive source, read only: each scenario breaks a copy. */
  source: string;
  /** Two states with incentives and relationships among them; the first is emptied, both go missing. */
  states: [string, string];
  /** A ZIP of the first state, whose calculator answer must not change. */
  zip: string;
  /** A state with incentives but no relationships that name them, for the ordinary update's removal. */
  quietState: string;
}

const KEY = 'upstream-breakage-test-key-0123';

export function upstreamBreakageSpecs({ source, states, zip, quietState }: BreakageSetup): void {
  const [first, second] = states;
  let root: string;
  let published: string;
  let server: Awaited<ReturnType<typeof startServer>>;
  let answer: string;
  const config = (settings: Record<string, string> = {}) =>
    loadConfig({
      LAKE_DIR: path.join(root, 'lake'),
      REM_STATES: 'none',
      HEALTH_STATES: 'none',
      LOG_LEVEL: 'silent',
      ...settings,
    });

  /** One pipeline run over a copy of the source changed by `breakIt`. */
  async function runOn(
    name: string,
    breakIt: (dir: string) => Promise<void>,
    settings: Record<string, string> = {},
  ): Promise<PipelineResult> {
    return runPipeline(await runOptions(name, breakIt, settings));
  }

  async function runOptions(
    name: string,
    breakIt: (dir: string) => Promise<void>,
    settings: Record<string, string> = {},
  ) {
    const copy = path.join(root, name);
    await cp(source, copy, { recursive: true });
    await breakIt(copy);
    const loaded = config(settings);
    return {
      config: loaded,
      logger: createLogger('silent'),
      definitions: await defaultDefinitions(loaded, { ...process.env, INCENTIVES_SOURCE: copy }),
      codeVersion: 'test',
    };
  }

  /** The first state's incentives file with its first 50 incentives (or all, if fewer) exported twice. */
  const exportTwice = async (dir: string) => {
    const file = path.join(dir, 'data', first, 'incentives.json');
    const incentives = JSON.parse(await readFile(file, 'utf8')) as IncentiveRecord[];
    await writeFile(file, JSON.stringify([...incentives, ...incentives.slice(0, 50)], null, 2));
  };
  const twiceCount = async () =>
    Math.min(
      50,
      (JSON.parse(await readFile(path.join(source, 'data', first, 'incentives.json'), 'utf8')) as []).length,
    );

  /** The second state's programs replaced by the first's, as a mixed-up export would have them. */
  const programsMixedUp = async (dir: string) => {
    await cp(path.join(dir, 'data', first, 'programs.json'), path.join(dir, 'data', second, 'programs.json'));
  };

  const calculator = async () => {
    const response = await server.app.inject({
      url: `/api/v1/calculator?zip=${zip}&owner_status=homeowner&household_income=60000&household_size=3&tax_filing=single`,
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  /** CURRENT and the answer served for the first state are those of the first run. */
  async function servedUnchanged(): Promise<void> {
    expect(await readCurrent(localLake(path.join(root, 'lake')))).toBe(published);
    expect(server.holder.current()?.id).toBe(published);
    expect(await calculator()).toBe(answer);
  }

  /** A held run: its hold names `held` among the emptied partitions of the incentives, and so does its diff. */
  async function expectHeldNaming(result: PipelineResult, held: readonly string[]): Promise<void> {
    expect(result.status).toBe('held');
    if (result.status !== 'held') return;
    const emptied = result.manifest.hold.findings.find(
      (f) => f.table === 'incentives' && f.check === 'partition-emptied',
    );
    expect(emptied?.examples?.map((example) => example.split(':')[0]).sort()).toEqual([...held].sort());
    const diff = await diffLake(localLake(path.join(root, 'lake')), result.snapshotId);
    const incentives = diff.tables.find((t) => t.table === 'incentives')!;
    for (const state of held) {
      expect(incentives.partitions).toContainEqual(expect.objectContaining({ partition: state, after: 0 }));
      expect(diff.incentives?.incentives.disappeared.some((row) => row.state === state)).toBe(true);
    }
  }

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'upstream-breakage-'));
    const result = await runOn('as-published', async () => undefined);
    published = result.snapshotId;
    server = await startServer(path.join(root, 'lake'), [createIncentivesApi()], KEY);
    answer = await calculator();
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    await rm(root, { recursive: true, force: true });
  });

  it(`holds a run where ${first}'s incentives and relationships were emptied (valid files)`, async () => {
    const result = await runOn('state-emptied', async (dir) => {
      await writeFile(path.join(dir, 'data', first, 'incentives.json'), '[]\n');
      await writeFile(path.join(dir, 'data', first, 'incentive_relationships.json'), '{}\n');
    });
    await expectHeldNaming(result, [first]);
    await servedUnchanged();
  }, 300_000);

  it(`holds a run where the ${first} and ${second} folders are missing`, async () => {
    const result = await runOn('states-missing', async (dir) => {
      for (const state of states) await rm(path.join(dir, 'data', state), { recursive: true });
    });
    await expectHeldNaming(result, states);
    await servedUnchanged();
  }, 300_000);

  it(`fails a run where a field of ${first}'s incentives was renamed (its relationships name them)`, async () => {
    const run = runOn('field-renamed', async (dir) => {
      const file = path.join(dir, 'data', first, 'incentives.json');
      await writeFile(file, (await readFile(file, 'utf8')).replaceAll('"program":', '"program_id":'));
    });
    await expect(run).rejects.toBeInstanceOf(AuditFailedError);
    await servedUnchanged();
  }, 300_000);

  it(`fails a run where ${first}'s incentives file is truncated`, async () => {
    const run = runOn('file-truncated', async (dir) => {
      const file = path.join(dir, 'data', first, 'incentives.json');
      await truncate(file, Math.floor((await readFile(file)).length / 2));
    });
    await expect(run).rejects.toBeInstanceOf(IngestError);
    await servedUnchanged();
  }, 300_000);

  it('fails a run where the whole source is empty', async () => {
    const run = runOn('source-empty', async (dir) => {
      await rm(dir, { recursive: true });
      await mkdir(dir);
    });
    await expect(run).rejects.toBeInstanceOf(IngestError);
    await servedUnchanged();
  }, 300_000);

  it(`fails a run where ${first}'s incentives were exported twice (exit ${EXIT_SOURCE_REJECTED}), naming the file, the count and keys`, async () => {
    const errors: string[] = [];
    const code = await pipelineCommand({
      ...(await runOptions('exported-twice', exportTwice)),
      print: () => undefined,
      printError: (line) => errors.push(line),
    });
    expect(code).toBe(EXIT_SOURCE_REJECTED);
    const count = await twiceCount();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      new RegExp(
        `^pipeline failed, nothing was published \\(the served snapshot is unchanged\\): Source "incentives" ` +
          `\\(.*\\): version [0-9a-f]{16} cannot be staged completely: ${count} keys each name more than one ` +
          `record \\(${count} keys of incentives\\.incentive in data/${first}/incentives\\.json: ${first}/[^,]+, ` +
          `.* and ${count - 5} more \\(the records differ in: position\\)\\)\\. .*SOURCE_FALLBACK=published\\.$`,
      ),
    );
    const [run] = await listRuns(localLake(path.join(root, 'lake')));
    expect(run).toMatchObject({
      outcome: 'failed',
      rejectedSources: [{ source: 'incentives', version: expect.stringMatching(/^[0-9a-f]{16}$/) }],
    });
    await servedUnchanged();
  }, 300_000);

  it(`after a run refused by its audits, a run with another broken source reports its own problem`, async () => {
    const refused = runOn('programs-mixed-up', programsMixedUp);
    await expect(refused).rejects.toBeInstanceOf(AuditFailedError);
    const refusedMessage = ((await refused.catch((e: unknown) => e)) as Error).message;
    const [refusedRun] = await listRuns(localLake(path.join(root, 'lake')));
    expect(refusedRun).toMatchObject({
      outcome: 'failed',
      rejectedSources: [{ source: 'incentives', reason: `refused with the run: ${refusedMessage}` }],
    });

    const next = await runOn('exported-twice-after-refusal', exportTwice).catch((e: unknown) => e);
    expect(next).toBeInstanceOf(DuplicateKeysError);
    expect((next as Error).message).toContain(`data/${first}/incentives.json`);
    expect((next as Error).message).not.toContain(second);
    await servedUnchanged();
  }, 300_000);

  it('after a run refused by its audits, the good source changes nothing', async () => {
    await expect(runOn('programs-mixed-up-again', programsMixedUp)).rejects.toBeInstanceOf(AuditFailedError);
    expect(await runOn('good-after-refusal', async () => undefined)).toEqual({
      status: 'unchanged',
      snapshotId: published,
    });
    await servedUnchanged();
  }, 300_000);

  it('with SOURCE_FALLBACK=published, builds from the published version in place of a rejected one, and says so', async () => {
    const result = await runOn('exported-twice-fallback', exportTwice, { SOURCE_FALLBACK: 'published' });
    const publishedVersion = (await readManifest(snapshotDir(path.join(root, 'lake'), published))).sources
      .incentives!.version;
    expect(result).toEqual({
      status: 'unchanged',
      snapshotId: published,
      fallbacks: [
        {
          source: 'incentives',
          version: publishedVersion,
          instead: {
            source: 'incentives',
            version: expect.stringMatching(/^[0-9a-f]{16}$/),
            reason: expect.stringContaining(`data/${first}/incentives.json`),
          },
        },
      ],
    });
    const [run] = await listRuns(localLake(path.join(root, 'lake')));
    expect(run).toMatchObject({
      outcome: 'unchanged',
      rejectedSources: [{ source: 'incentives', fallback: publishedVersion }],
    });
    await servedUnchanged();
  }, 300_000);

  it('publishes nothing when nothing changed', async () => {
    expect(await runOn('unchanged', async () => undefined)).toEqual({
      status: 'unchanged',
      snapshotId: published,
    });
  }, 300_000);

  it(`publishes an ordinary update without a hold: amounts changed in ${first}, an incentive gone from ${quietState}`, async () => {
    const result = await runOn('ordinary-update', async (dir) => {
      const changeFile = path.join(dir, 'data', first, 'incentives.json');
      const incentives = JSON.parse(await readFile(changeFile, 'utf8')) as IncentiveRecord[];
      for (const incentive of incentives.slice(0, 3))
        incentive.amount.number = Math.round(incentive.amount.number * 1.1 * 100) / 100;
      await writeFile(changeFile, JSON.stringify(incentives, null, 2));
      const removeFile = path.join(dir, 'data', quietState, 'incentives.json');
      const quiet = JSON.parse(await readFile(removeFile, 'utf8')) as IncentiveRecord[];
      await writeFile(removeFile, JSON.stringify(quiet.slice(1), null, 2));
    });
    expect(result.status).toBe('published');
    expect(await readCurrent(localLake(path.join(root, 'lake')))).toBe(result.snapshotId);
    // The server follows a publish (and only a publish) to the new snapshot.
    await expect.poll(() => server.holder.current()?.id, { timeout: 60_000 }).toBe(result.snapshotId);
    const diff = await diffLake(localLake(path.join(root, 'lake')), result.snapshotId, published);
    expect(diff.incentives?.incentives.amountChanged).toHaveLength(3);
    expect(diff.incentives?.incentives.disappeared.map((row) => row.state)).toEqual([quietState]);
  }, 300_000);
}
