import { cp, mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { diffLake } from '../../data-lake/diff/lake-diff.ts';
import { readCurrent } from '../../data-lake/current-pointer.ts';
import { IngestError } from '../../ingest/ingest-job.ts';
import { loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/log.ts';
import type { IncentiveRecord } from '../../schemas/incentives/records.ts';
import { createIncentivesApi } from '../../serve/incentives/incentives-api.ts';
import { defaultCatalog } from '../../transform/catalog.ts';
import { AuditFailedError } from '../../transform/pipeline/audit-failed-error.ts';
import { runPipeline, type PipelineResult } from '../../transform/pipeline/run-pipeline.ts';
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
  const config = () =>
    loadConfig({
      LAKE_DIR: path.join(root, 'lake'),
      REM_STATES: 'none',
      HEALTH_STATES: 'none',
      LOG_LEVEL: 'silent',
    });

  /** One pipeline run over a copy of the source changed by `breakIt`. */
  async function runOn(name: string, breakIt: (dir: string) => Promise<void>): Promise<PipelineResult> {
    const copy = path.join(root, name);
    await cp(source, copy, { recursive: true });
    await breakIt(copy);
    const settings = config();
    return runPipeline({
      config: settings,
      logger: createLogger('silent'),
      catalog: await defaultCatalog(settings, { ...process.env, INCENTIVES_SOURCE: copy }),
      codeVersion: 'test',
    });
  }

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
    expect(await readCurrent(path.join(root, 'lake'))).toBe(published);
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
    const diff = await diffLake(path.join(root, 'lake'), result.snapshotId);
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
    expect(await readCurrent(path.join(root, 'lake'))).toBe(result.snapshotId);
    // The server follows a publish (and only a publish) to the new snapshot.
    await expect.poll(() => server.holder.current()?.id, { timeout: 60_000 }).toBe(result.snapshotId);
    const diff = await diffLake(path.join(root, 'lake'), result.snapshotId, published);
    expect(diff.incentives?.incentives.amountChanged).toHaveLength(3);
    expect(diff.incentives?.incentives.disappeared.map((row) => row.state)).toEqual([quietState]);
  }, 300_000);
}
