import { createHash } from 'node:crypto';
import { codeFingerprint } from '../lib/code-fingerprint.ts';
import type { Config } from '../schemas/config.ts';
import type { Manifest } from '../schemas/lake.ts';
import { declaredSettings, inputNames, type AnyLakeTable } from '../transform/tables/lake-table.ts';
import type { UsableVersion } from './select-source-versions.ts';

/**
 * What each table is built from, hashed: the source versions of the records it reads, the fingerprints of
 * the tables it reads, the values of the settings it declares, its code and the pipeline's
 * (lib/code-fingerprint.ts) and its schema version. Equal fingerprints mean equal rows, so a run rebuilds only the tables whose fingerprint
 * changed (and those a rebuilt table reads), reuses the others' files, and publishes nothing when the
 * snapshot's fingerprint is the published one.
 */
export interface TableLineage {
  fingerprint: string;
  /** Hash of the table's code and of every module it imports. */
  code: string;
  /** The declared settings and their values. */
  settings: Record<string, unknown>;
}

export interface RunLineage {
  tables: Map<string, TableLineage>;
  /** Hash of the pipeline's own code (building, auditing, writing Parquet). */
  pipelineCode: string;
  /** Hash of every table's fingerprint: the snapshot's fingerprint. */
  fingerprint: string;
}

/** The pipeline's own code: how rows are validated, loaded into DuckDB, audited and written. */
const PIPELINE_CODE = [new URL('./publish-snapshot.ts', import.meta.url)];

/** Lineage of every table of a run; `tables` in dependency order (see orderTables). */
export function runLineage(
  tables: readonly AnyLakeTable[],
  chosen: readonly UsableVersion[],
  config: Config,
  codeOf: (modules: readonly (string | URL)[]) => string = (modules) => codeFingerprint(modules).hash,
): RunLineage {
  // Part of every table's fingerprint: the same rows written by other code may not be the same file.
  const pipelineCode = codeOf(PIPELINE_CODE);
  const lineage = new Map<string, TableLineage>();
  for (const table of tables) {
    const settings = declaredSettings(table, config) as Record<string, unknown>;
    const code = codeOf(table.code);
    const names = inputNames(table);
    const records = names.records.map((schema) => [
      schema,
      chosen
        .filter((v) => schema in v.event.recordCounts)
        .map((v) => [v.source, v.version, v.event.contentHash])
        .sort(),
    ]);
    const inputs = names.tables.map((name) => {
      const input = lineage.get(name);
      if (!input) throw new Error(`table ${table.name} reads ${name}, which is not built before it`);
      return [name, input.fingerprint];
    });
    const fingerprint = sha256({
      name: table.name,
      schemaVersion: table.schemaVersion,
      code,
      pipelineCode,
      settings: sortedEntries(settings),
      records,
      inputs,
    });
    lineage.set(table.name, { fingerprint, code, settings });
  }
  const fingerprint = sha256([...lineage].map(([name, t]) => [name, t.fingerprint]).sort());
  return { tables: lineage, pipelineCode, fingerprint };
}

export interface RebuildPlan {
  /** Tables whose rows may differ from the published snapshot's: their fingerprint changed. */
  changed: string[];
  /** Tables built this run: the changed ones and the unchanged ones a changed table reads. */
  build: Set<string>;
  /** Tables whose file is taken over from the published snapshot, unchanged. */
  reuse: Set<string>;
}

/**
 * Which tables to build: those whose fingerprint differs from the published snapshot's, then, walking
 * back, every table a built table reads (its rows are needed in the run's DuckDB; rebuilding them from
 * the same inputs gives the same rows). Every other table's file is reused.
 */
export function planRebuild(
  tables: readonly AnyLakeTable[],
  lineage: RunLineage,
  published: Manifest | null,
): RebuildPlan {
  const changed = tables
    .filter((t) => published?.tables[t.name]?.fingerprint !== lineage.tables.get(t.name)!.fingerprint)
    .map((t) => t.name);
  const build = new Set(changed);
  for (const table of [...tables].reverse()) {
    if (build.has(table.name)) for (const input of inputNames(table).tables) build.add(input);
  }
  const reuse = new Set(tables.map((t) => t.name).filter((name) => !build.has(name)));
  return { changed, build, reuse };
}

/**
 * One line saying what changed since the published snapshot and what the run will rebuild, e.g.
 * "changed: setting REM_SAMPLES 400 → 100; rebuilding rem_clusters, rem_cluster_statistics (changed),
 * rem_counties (read by a changed table); reusing 24 tables".
 */
export function describeRebuild(
  tables: readonly AnyLakeTable[],
  lineage: RunLineage,
  plan: RebuildPlan,
  chosen: readonly UsableVersion[],
  published: Manifest | null,
): string {
  if (published === null) return `first snapshot: building all ${tables.length} tables`;
  const changes: string[] = [];
  for (const version of chosen) {
    const before = published.sources[version.source];
    if (!before) changes.push(`new source ${version.source}`);
    else if (before.contentHash !== version.event.contentHash)
      changes.push(`source ${version.source} ${before.version} → ${version.version}`);
  }
  const settings = new Map<string, [unknown, unknown]>();
  const code: string[] = [];
  for (const table of tables) {
    const now = lineage.tables.get(table.name)!;
    const before = published.tables[table.name];
    if (!before) {
      changes.push(`new table ${table.name}`);
      continue;
    }
    if (before.schemaVersion !== table.schemaVersion)
      changes.push(`schema of ${table.name} v${before.schemaVersion} → v${table.schemaVersion}`);
    if (before.code !== now.code) code.push(table.name);
    for (const [name, value] of Object.entries(now.settings)) {
      const old = before.settings?.[name];
      if (JSON.stringify(old) !== JSON.stringify(value)) settings.set(name, [old, value]);
    }
  }
  for (const [name, [old, value]] of settings) changes.push(`setting ${name} ${show(old)} → ${show(value)}`);
  if (code.length > 0) changes.push(`code of ${code.join(', ')}`);
  if (published.pipelineCode !== lineage.pipelineCode) changes.push('pipeline code');
  for (const name of Object.keys(published.tables)) {
    if (!lineage.tables.has(name)) changes.push(`table ${name} removed`);
  }
  const readOnly = tables
    .map((t) => t.name)
    .filter((name) => plan.build.has(name) && !plan.changed.includes(name));
  const rebuilding = [
    plan.changed.length > 0 ? `${plan.changed.join(', ')} (changed)` : '',
    readOnly.length > 0 ? `${readOnly.join(', ')} (read by a changed table)` : '',
  ].filter((part) => part !== '');
  return (
    `changed: ${changes.length > 0 ? changes.join('; ') : 'nothing'}; ` +
    (rebuilding.length > 0 ? `rebuilding ${rebuilding.join(', ')}` : 'rebuilding nothing') +
    `; reusing ${plan.reuse.size} table${plan.reuse.size === 1 ? '' : 's'}`
  );
}

function show(value: unknown): string {
  if (value === undefined) return '(unset)';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(',');
  return String(value);
}

function sortedEntries(record: Record<string, unknown>): [string, unknown][] {
  return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function sha256(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}
