import type { PipelineCatalog } from '../catalog.ts';
import { readCurrent } from '../../data-lake/current-pointer.ts';
import { snapshotDir } from '../../data-lake/lake-paths.ts';
import { readManifest } from '../../data-lake/manifest-file.ts';
import { inputNames, type AnyLakeTable } from '../tables/lake-table.ts';

/*
 * A fresh lake is published in two runs so the cheap tables are served in seconds: the first run builds
 * only a few tables (and those they read), the second the whole catalog. The second run's fingerprints of
 * the first run's tables are equal, so it takes their files over and builds only the rest.
 */

/** The catalog narrowed to `first` and every table they read, in catalog order; sources stay whole. */
export function firstStageCatalog(catalog: PipelineCatalog, first: readonly AnyLakeTable[]): PipelineCatalog {
  const byName = new Map(catalog.tables.map((table) => [table.name, table]));
  const keep = new Set<string>();
  const visit = (name: string) => {
    if (keep.has(name)) return;
    const table = byName.get(name);
    if (table === undefined) throw new Error(`first-stage table ${name} is not in the catalog`);
    keep.add(name);
    for (const input of inputNames(table).tables) visit(input);
  };
  for (const table of first) visit(table.name);
  return { ...catalog, tables: catalog.tables.filter((table) => keep.has(table.name)) };
}

/**
 * The catalog's tables the published snapshot lacks (all of them when nothing is published): non-empty
 * after a first-stage publish, or when a run of newer code declared a table since.
 */
export async function unpublishedTables(lakeDir: string, catalog: PipelineCatalog): Promise<string[]> {
  const current = await readCurrent(lakeDir);
  const manifest =
    current === null ? null : await readManifest(snapshotDir(lakeDir, current)).catch(() => null);
  return catalog.tables.map((table) => table.name).filter((name) => !(manifest && name in manifest.tables));
}
