import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect } from 'vitest';
import { localLake } from '../../../data-lake/lake.ts';
import {
  openSnapshot,
  readCurrent,
  tablesNamedBy,
  type SnapshotReader,
} from '../../../data-lake/snapshot-reader.ts';
import { loadConfig } from '../../../lib/config.ts';
import { defaultDefinitions } from '../../../pipeline/definitions.ts';
import { runPipeline } from '../../../pipeline/run-pipeline.ts';
import type { Manifest } from '../../../schemas/lake.ts';
import { incentivesLoader } from '../../../serve/incentives/incentives-loader.ts';
import { createRouteGroups } from '../../../serve/route-groups.ts';
import { specRemModel } from '../../support/rem-model.ts';
import { silentLogger } from '../../support/serve-fixtures.ts';
import { it } from '../../support/temp-dir.ts';

// A module that states what its data is made from (SnapshotLoader.madeFrom) keeps that data for the next
// snapshot when those parts of the manifest are unchanged. So every table its load reads must be among them:
// a change to a table left out would never be served. Each module's load is watched over a snapshot the
// pipeline built from the project's sample data (every family, Rhode Island).
const remModel = specRemModel({ threads: 1 });
const groups = createRouteGroups({ remModel });
afterAll(() => remModel.close());

const READS: Record<string, string[]> = {
  incentives: [
    'incentives_serving_locations',
    'incentives_serving_states',
    'loan_programs',
    'low_income_thresholds',
    'poverty_levels',
    'rem_zip_counties',
    'tax_brackets',
  ],
  rem: [
    'rem_cluster_statistics',
    'rem_clusters',
    'rem_counties',
    'rem_emission_factors',
    'rem_energy_rates',
    'rem_grid_emission_factors',
    'rem_zip_counties',
  ],
  'health-impacts': ['health_county_impacts'],
};

let snapshot: SnapshotReader;
it.beforeAll(async ({ fileTempDir }) => {
  const config = loadConfig({
    LAKE_DIR: fileTempDir,
    AS_OF_DATE: '2025-06-01',
    REM_STATES: 'RI',
    HEALTH_STATES: 'RI',
    REM_SAMPLES: '10',
    LOG_LEVEL: 'silent',
  });
  // An empty environment: the sample data, whatever INCENTIVES_SOURCE the developer has set.
  const definitions = await defaultDefinitions(config, {});
  await runPipeline({ config, logger: silentLogger(), definitions, codeVersion: 'made-from-test' });
  const lake = localLake(fileTempDir);
  snapshot = await openSnapshot(lake, (await readCurrent(lake))!);
}, 120_000);

/** `reader`, noting in `read` each table a call reads (a query's: the tables it names). */
function watched(reader: SnapshotReader, read: Set<string>): SnapshotReader {
  return {
    id: reader.id,
    dir: reader.dir,
    manifest: reader.manifest,
    rows: (table) => (read.add(table), reader.rows(table)),
    columns: (table) => (read.add(table), reader.columns(table)),
    writeFloat64File: (name, sql) => {
      for (const [table] of tablesNamedBy(reader.manifest, sql)) read.add(table);
      return reader.writeFloat64File(name, sql);
    },
  };
}

/** `manifest` with table `table`'s file of other bytes. */
const withChanged = (manifest: Manifest, table: string): Manifest => ({
  ...manifest,
  tables: { ...manifest.tables, [table]: { ...manifest.tables[table]!, sha256: 'f'.repeat(64) } },
});

describe('what each module’s data is made from', () => {
  for (const { loader } of groups.filter((g) => g.loader.madeFrom !== undefined)) {
    it(`${loader.name}: every table its load reads, and nothing a next snapshot of the same tables lacks`, async () => {
      const read = new Set<string>();
      const data = await loader.load(watched(snapshot, read));
      expect(loader.ready?.(data) ?? true).toBe(true);
      expect([...read].sort()).toEqual(READS[loader.name]);
      const madeFrom = loader.madeFrom!;
      // A later snapshot: another id, time and fingerprint, the same tables.
      const next: Manifest = {
        ...snapshot.manifest,
        id: 'next',
        createdAt: new Date().toISOString(),
        fingerprint: 'fp',
      };
      expect(isDeepStrictEqual(madeFrom(next), madeFrom(snapshot.manifest))).toBe(true);
      const unnoticed = [...read].filter((table) =>
        isDeepStrictEqual(madeFrom(withChanged(snapshot.manifest, table)), madeFrom(snapshot.manifest)),
      );
      expect(unnoticed).toEqual([]);
    });
  }

  it('incentives: a snapshot that changes only the catalog keeps the places loaded for the one served', async () => {
    const loader = incentivesLoader;
    const served = { manifest: snapshot.manifest, data: await loader.load(snapshot) };
    const read = new Set<string>();
    const next = {
      ...watched(snapshot, read),
      manifest: withChanged(snapshot.manifest, 'incentives_serving_states'),
    };
    const data = await loader.load(next, served);

    expect([...read].sort()).toEqual([
      'incentives_serving_states',
      'loan_programs',
      'low_income_thresholds',
      'poverty_levels',
      'tax_brackets',
    ]);
    expect(data.locations).toBe(served.data.locations);
    expect(data.zipStates).toBe(served.data.zipStates);
    expect(data.states).not.toBe(served.data.states);
  });

  it('incentives: a snapshot that changes the locations or the ZIPs’ counties prepares the places again', async () => {
    const loader = incentivesLoader;
    const served = { manifest: snapshot.manifest, data: await loader.load(snapshot) };
    for (const table of ['incentives_serving_locations', 'rem_zip_counties']) {
      const read = new Set<string>();
      const next = { ...watched(snapshot, read), manifest: withChanged(snapshot.manifest, table) };
      const data = await loader.load(next, served);

      expect(read).toContain('incentives_serving_locations');
      expect(read).toContain('rem_zip_counties');
      expect(data.locations).not.toBe(served.data.locations);
      expect(data.locations.get('02814')).toEqual(served.data.locations.get('02814'));
    }
  });

  it('the lake listing, which names its snapshot, is loaded for every snapshot', () => {
    expect(groups.filter((g) => g.loader.madeFrom === undefined).map((g) => g.loader.name)).toEqual(['lake']);
  });
});
