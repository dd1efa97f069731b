import { localLake, type Lake } from '../../data-lake/lake.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll } from 'vitest';
import type { ZodType } from 'zod';
import type { Manifest } from '../../schemas/lake.ts';
import { columnsOfRow } from '../../data-lake/column-types.ts';
import { moveCurrent } from '../../data-lake/current-pointer.ts';
import { storeSnapshot, writeSnapshotFiles } from '../../data-lake/snapshot-writer.ts';
import { loadTable } from '../../data-lake/table-loader.ts';
import { loadConfig } from '../../lib/config.ts';
import type { PrecomputeProgress } from '../../serve/http/not-ready.ts';
import type { RouteGroup } from '../../serve/route-group.ts';
import { buildApp } from '../../serve/app.ts';
import { lakeSnapshotSource } from '../../serve/snapshot/lake-snapshot-source.ts';
import { SnapshotHolder } from '../../serve/snapshot/snapshot-holder.ts';
import { PROGRAMS, programRows, programsModule, silentLogger } from './serve-fixtures.ts';

export interface FixtureTable {
  name: string;
  row: ZodType;
  rows: readonly Record<string, unknown>[];
  /** What the manifest says the table was built from (default: nothing). */
  inputs?: { records: string[]; tables: string[] };
}

/**
 * Writes a real lake snapshot (Parquet + manifest, through the lake's own writer) of the given tables, into
 * a lake or the directory of one.
 */
export async function writeTablesSnapshot(
  lakeOrDir: Lake | string,
  id: string,
  tables: readonly FixtureTable[],
  options: { publish: boolean; sources?: Manifest['sources']; hold?: Manifest['hold'] },
): Promise<void> {
  const lake = typeof lakeOrDir === 'string' ? localLake(lakeOrDir) : lakeOrDir;
  const instance = await DuckDBInstance.create(':memory:');
  try {
    const db = await instance.connect();
    try {
      for (const table of tables)
        await loadTable(db, table.name, columnsOfRow(table.name, table.row), table.rows);
      await storeSnapshot(
        lake,
        await writeSnapshotFiles(lake, db, {
          id,
          createdAt: '2026-11-21T12:00:00.000Z',
          parent: null,
          fingerprint: `fixture-${id}`,
          codeVersion: 'fixture-code',
          sources: options.sources ?? {},
          audit: options.hold?.findings ?? [],
          ...(options.hold ? { hold: options.hold } : {}),
          tables: tables.map((table) => ({
            name: table.name,
            rows: table.rows.length,
            schemaVersion: 1,
            description: `fixture ${table.name}`,
            inputs: table.inputs ?? { records: [], tables: [] },
          })),
        }),
      );
    } finally {
      db.closeSync();
    }
  } finally {
    instance.closeSync();
  }
  if (options.publish) await moveCurrent(lake, id);
}

/** The fixture `programs` table the stand-in module serves. */
export const programsTable = (snapshot: string, count = 3): FixtureTable => ({
  ...PROGRAMS,
  rows: programRows(snapshot, count),
});

/**
 * Writes a real lake snapshot holding the fixture `programs` table with `count` rows tagged with the
 * snapshot id; `publish` also moves CURRENT to it.
 */
export function writeProgramsSnapshot(
  lake: Lake | string,
  id: string,
  count: number,
  options: { publish: boolean },
): Promise<void> {
  return writeTablesSnapshot(lake, id, [programsTable(id, count)], options);
}

/**
 * The server over a lake with the given route groups and the fixture programs module (a stand-in for the
 * incentives, to show a module never stops other routes), following CURRENT through the real child reader.
 */
export const startLakeServer = (
  lakeDir: string,
  modules: readonly RouteGroup<unknown>[],
  key: string,
  /** Further settings of the server's configuration. */
  env: Record<string, string> = {},
  /** A second key, a reviewer's (may read held snapshots). */
  reviewerKey?: string,
  /** How far a precompute is, as the primary reports it (default: none runs). */
  precompute?: () => PrecomputeProgress | null,
) =>
  startServer(
    lakeDir,
    [...modules, programsModule()] as RouteGroup<unknown>[],
    key,
    env,
    reviewerKey,
    precompute,
  );

/** The server over a lake with exactly these route groups (a lake the pipeline built), following CURRENT. */
export async function startServer(
  lakeDir: string,
  modules: readonly RouteGroup<unknown>[],
  key: string,
  env: Record<string, string> = {},
  reviewerKey?: string,
  precompute?: () => PrecomputeProgress | null,
) {
  const logger = silentLogger();
  const holder = new SnapshotHolder({
    source: lakeSnapshotSource(localLake(lakeDir)),
    loaders: modules.map((m) => m.loader),
    pollMs: 60_000,
    logger,
  });
  await holder.start();
  const app = await buildApp({
    config: loadConfig({
      LAKE_DIR: lakeDir,
      AS_OF_DATE: '2026-11-21',
      API_KEYS: key,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_MINUTE: '100000000',
      ...env,
    }),
    logger,
    snapshots: holder,
    routeGroups: modules,
    ...(precompute ? { precompute } : {}),
    keyStore: {
      authenticate: (given) =>
        given === key
          ? { id: 'test', name: 'test', reviewer: false }
          : given === reviewerKey
            ? { id: 'reviewer', name: 'reviewer', reviewer: true }
            : null,
    },
  });
  await app.ready();
  return {
    app,
    holder,
    close: async () => {
      await app.close();
      holder.close();
    },
  };
}

export type LakeServer = Awaited<ReturnType<typeof startServer>> & { lakeDir: string };

/**
 * For a spec file: a temporary lake whose published snapshot `id` holds `tables` (and the stand-in
 * programs table), the server over it with `modules`, and both removed afterwards. `before` may write
 * other snapshots first. Returns a getter, since the server exists only once beforeAll has run.
 */
export function lakeServerForSpecs(
  id: string,
  setup: {
    tables: () => FixtureTable[];
    routeGroups: () => RouteGroup<unknown>[];
    key: string;
    sources?: Manifest['sources'];
    before?: (lakeDir: string) => Promise<void>;
    env?: Record<string, string>;
    reviewerKey?: string;
    precompute?: () => PrecomputeProgress | null;
  },
): () => LakeServer {
  let server: LakeServer | undefined;
  beforeAll(async () => {
    const lakeDir = await mkdtemp(path.join(tmpdir(), `${id}-`));
    await setup.before?.(lakeDir);
    await writeTablesSnapshot(lakeDir, id, [programsTable(id), ...setup.tables()], {
      publish: true,
      sources: setup.sources,
    });
    server = {
      ...(await startLakeServer(
        lakeDir,
        setup.routeGroups(),
        setup.key,
        setup.env,
        setup.reviewerKey,
        setup.precompute,
      )),
      lakeDir,
    };
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    if (server) await rm(server.lakeDir, { recursive: true, force: true });
  });
  return () => server!;
}
