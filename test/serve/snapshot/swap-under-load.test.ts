import { localLake } from '../../../data-lake/lake.ts';
import { afterEach, describe, expect } from 'vitest';
import { it } from '../../support/temp-dir.ts';
import { moveCurrent } from '../../../data-lake/current-pointer.ts';
import { startService, type RunningService } from '../../../serve/service.ts';
import { lakeSnapshotSource } from '../../../serve/snapshot/lake-snapshot-source.ts';
import { programsModule, silentLogger, testConfig, type ProgramRow } from '../../support/serve-fixtures.ts';
import { writeProgramsSnapshot } from '../../support/serve-lake-fixture.ts';

const KEY = 'load-test-key-0123456789';
const SNAPSHOTS = ['s0', 's1', 's2', 's3', 's4'];
/** Each snapshot has a different number of rows, so a response mixing two snapshots shows. */
const rowsIn = (id: string) => 2 + SNAPSHOTS.indexOf(id);

let service: RunningService | undefined;
afterEach(async () => {
  await service?.stop();
});

describe('snapshot swap under load', () => {
  it('answers every concurrent request from exactly one snapshot while CURRENT moves four times', async ({
    lakeDir,
  }) => {
    for (const id of SNAPSHOTS)
      await writeProgramsSnapshot(lakeDir, id, rowsIn(id), { publish: id === 's0' });
    service = await startService({
      config: testConfig({
        LAKE_DIR: lakeDir,
        PORT: '0',
        API_KEYS: KEY,
        SNAPSHOT_POLL_MS: '50',
        RATE_LIMIT_PER_MINUTE: '1000000',
      }),
      logger: silentLogger(),
      // A pause inside the handler keeps requests in flight across each swap.
      routeGroups: [programsModule({ handlerDelayMs: 3 })],
      source: lakeSnapshotSource(localLake(lakeDir)),
      publishFirstSnapshot: async () => {
        throw new Error('a snapshot is already published');
      },
      print: () => {},
    });
    const url = `${service.url}/v1/programs`;

    const failures: string[] = [];
    const served = new Map<string, number>();
    let stop = false;
    const worker = async () => {
      while (!stop) {
        try {
          const res = await fetch(url, { headers: { authorization: `Bearer ${KEY}` } });
          const header = res.headers.get('x-snapshot-id') ?? '';
          const body = (await res.json()) as { snapshot: string; programs: ProgramRow[] };
          const consistent =
            res.status === 200 &&
            body.snapshot === header &&
            body.programs.length === rowsIn(header) &&
            body.programs.every((p) => p.snapshot === header);
          if (!consistent) failures.push(`${res.status} header=${header} body=${JSON.stringify(body)}`);
          served.set(header, (served.get(header) ?? 0) + 1);
        } catch (err) {
          failures.push(String(err));
        }
      }
    };
    const workers = Array.from({ length: 24 }, worker);

    // Progress, not time, paces the switches: each snapshot answers a batch of requests before CURRENT moves on.
    const answeredFrom = (id: string, count: number) =>
      expect.poll(() => served.get(id) ?? 0, { timeout: 20_000, interval: 10 }).toBeGreaterThanOrEqual(count);
    await answeredFrom('s0', 30);
    for (const id of SNAPSHOTS.slice(1)) {
      await moveCurrent(localLake(lakeDir), id);
      await answeredFrom(id, 30);
    }
    stop = true;
    await Promise.all(workers);

    expect(failures).toEqual([]);
    expect([...served.keys()].sort()).toEqual(SNAPSHOTS);
  });
});
