import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { sourceVersionPayloadSchema, type SourceVersionPayload } from '../schemas/envelope.ts';
import { fsyncPath, removeTempFiles, TEMP_MARKER, writeFileAtomically } from '../lib/fs/durable-file.ts';
import { directoryEntries } from '../lib/fs/directory-entries.ts';

/** One record as the transform consumer judged it, with where it sits on the event log. */
export interface StagingEntry {
  source: string;
  sourceVersion: string;
  schema: string;
  key: string;
  partition: number;
  offset: string;
  status: 'accepted' | 'quarantined';
  /** Why it was quarantined (the zod issues), for quarantined entries. */
  reason?: string;
  payload: unknown;
}

export interface AcceptedRecord {
  key: string;
  payload: unknown;
}

export interface QuarantinedRecord {
  key: string;
  reason: string;
  payload: unknown;
}

export type RecordCounts = Record<string, { accepted: number; quarantined: number }>;

/** A source version as staging knows it: its source-version event (if seen) and its staged counts. */
export interface StagedVersion {
  source: string;
  version: string;
  /** Offset of its source-version event on the log, which orders a source's versions; null if not seen. */
  eventOffset: bigint | null;
  event: SourceVersionPayload | null;
  counts: RecordCounts;
}

const SOURCE_VERSION_FILE = 'source-version.json';
const COUNTS_FILE = 'counts.json';
const SEGMENTS_DIR = 'segments';

/**
 * Staged records on disk, per source / version / record schema:
 *
 *   <source>/<version>/source-version.json          { offset, event }: the version's SourceVersionPayload
 *   <source>/<version>/segments/<schema>/<slot>     NDJSON of one delivered batch, until compacted
 *   <source>/<version>/<schema>.accepted.ndjson     { key, payload } sorted by key
 *   <source>/<version>/<schema>.quarantined.ndjson  { key, reason, payload } sorted by key
 *   <source>/<version>/counts.json                  accepted and quarantined per schema
 *
 * Every file is written atomically. Segments are named after the log position of their first record, so
 * a batch delivered again overwrites its own segment; compaction dedupes by key and sorts, so the staged
 * files depend only on what the log holds, never on how deliveries were batched or repeated.
 */
export class StagingStore {
  constructor(readonly dir: string) {}

  /** Writes a delivered batch's entries, durably, before the consumer commits its offsets. */
  async writeBatch(topic: string, entries: readonly StagingEntry[]): Promise<void> {
    const groups = new Map<string, StagingEntry[]>();
    for (const entry of entries) {
      const id = JSON.stringify([entry.source, entry.sourceVersion, entry.schema]);
      const group = groups.get(id) ?? [];
      group.push(entry);
      groups.set(id, group);
    }
    for (const group of groups.values()) {
      const first = group[0]!;
      const dir = path.join(
        this.versionDir(first.source, first.sourceVersion),
        SEGMENTS_DIR,
        safeName(first.schema),
      );
      await this.makeDurableDir(dir);
      const slot = `${safeName(topic)}~${first.partition}~${first.offset.padStart(20, '0')}.ndjson`;
      await writeFileAtomically(path.join(dir, slot), group.map((e) => `${JSON.stringify(e)}\n`).join(''));
    }
  }

  /** Records a source-version event; a later event of the same version replaces an earlier one. */
  async writeSourceVersion(event: SourceVersionPayload, offset: string): Promise<void> {
    const dir = this.versionDir(event.source, event.version);
    await this.makeDurableDir(dir);
    await writeFileAtomically(path.join(dir, SOURCE_VERSION_FILE), `${JSON.stringify({ offset, event })}\n`);
  }

  /** Folds every pending segment into the sorted per-schema files and refreshes the counts. */
  async compact(): Promise<number> {
    let compacted = 0;
    for (const { source, version } of await this.versionDirs()) {
      const dir = this.versionDir(source, version);
      const segmentsDir = path.join(dir, SEGMENTS_DIR);
      const schemas = await directoryEntries(segmentsDir);
      if (schemas.length === 0) continue;
      for (const schemaDir of schemas) await this.compactSchema(dir, path.join(segmentsDir, schemaDir));
      await writeFileAtomically(
        path.join(dir, COUNTS_FILE),
        `${JSON.stringify(await this.countFiles(dir))}\n`,
      );
      // Segments go last: a crash before this line only means compacting the same records again.
      await rm(segmentsDir, { recursive: true, force: true });
      compacted++;
    }
    return compacted;
  }

  /** Every version of every source staging holds, with what is known about it. */
  async versions(): Promise<StagedVersion[]> {
    const found: StagedVersion[] = [];
    for (const { source, version } of await this.versionDirs()) {
      const dir = this.versionDir(source, version);
      const recorded = await readJson<{ offset: string; event: unknown }>(
        path.join(dir, SOURCE_VERSION_FILE),
      );
      const counts = (await readJson<RecordCounts>(path.join(dir, COUNTS_FILE))) ?? {};
      found.push({
        source,
        version,
        eventOffset: recorded === null ? null : BigInt(recorded.offset),
        event: recorded === null ? null : sourceVersionPayloadSchema.parse(recorded.event),
        counts,
      });
    }
    return found;
  }

  async accepted(source: string, version: string, schema: string): Promise<AcceptedRecord[]> {
    return readNdjson<AcceptedRecord>(this.schemaFile(source, version, schema, 'accepted'));
  }

  async quarantined(source: string, version: string, schema: string): Promise<QuarantinedRecord[]> {
    return readNdjson<QuarantinedRecord>(this.schemaFile(source, version, schema, 'quarantined'));
  }

  /** Deletes a staged version (one no run needs any more). */
  async removeVersion(source: string, version: string): Promise<void> {
    // Renamed aside first, so a crash mid-delete never leaves a version that looks staged but lacks files.
    const dir = this.versionDir(source, version);
    const aside = `${dir}${TEMP_MARKER}deleting`;
    await rename(dir, aside);
    await rm(aside, { recursive: true, force: true });
  }

  /** Deletes temporary files of writes (and versions being deleted) that a crash interrupted. */
  async removeLeftovers(): Promise<void> {
    for (const source of await directoryEntries(this.dir)) await removeTempFiles(path.join(this.dir, source));
    for (const { source, version } of await this.versionDirs()) {
      const dir = this.versionDir(source, version);
      await removeTempFiles(dir);
      for (const schemaDir of await directoryEntries(path.join(dir, SEGMENTS_DIR))) {
        await removeTempFiles(path.join(dir, SEGMENTS_DIR, schemaDir));
      }
    }
  }

  private async compactSchema(versionDir: string, segmentDir: string): Promise<void> {
    const compacted = path.join(versionDir, path.basename(segmentDir));
    // Key → the latest verdict: what was compacted before, then each segment in log order.
    const latest = new Map<string, { reason?: string; payload: unknown }>();
    for (const record of await readNdjson<AcceptedRecord>(`${compacted}.accepted.ndjson`)) {
      latest.set(record.key, { payload: record.payload });
    }
    for (const record of await readNdjson<QuarantinedRecord>(`${compacted}.quarantined.ndjson`)) {
      latest.set(record.key, { reason: record.reason, payload: record.payload });
    }
    const segments = (await directoryEntries(segmentDir)).filter((name) => name.endsWith('.ndjson')).sort();
    for (const segment of segments) {
      for (const entry of await readNdjson<StagingEntry>(path.join(segmentDir, segment))) {
        latest.set(entry.key, {
          ...(entry.status === 'quarantined' ? { reason: entry.reason ?? '' } : {}),
          payload: entry.payload,
        });
      }
    }
    const accepted: string[] = [];
    const quarantined: string[] = [];
    for (const key of [...latest.keys()].sort(compareKeys)) {
      const { reason, payload } = latest.get(key)!;
      if (reason === undefined) accepted.push(`${JSON.stringify({ key, payload })}\n`);
      else quarantined.push(`${JSON.stringify({ key, reason, payload })}\n`);
    }
    await writeFileAtomically(`${compacted}.accepted.ndjson`, accepted.join(''));
    await writeFileAtomically(`${compacted}.quarantined.ndjson`, quarantined.join(''));
  }

  private async countFiles(versionDir: string): Promise<RecordCounts> {
    const counts: RecordCounts = {};
    const names = (await directoryEntries(versionDir)).filter((name) => name.endsWith('.ndjson')).sort();
    for (const name of names) {
      const match = /^(.*)\.(accepted|quarantined)\.ndjson$/.exec(name);
      if (!match) continue;
      const schema = decodeURIComponent(match[1]!);
      const lines = (await readFile(path.join(versionDir, name), 'utf8')).split('\n').filter(Boolean).length;
      const count = (counts[schema] ??= { accepted: 0, quarantined: 0 });
      count[match[2] as 'accepted' | 'quarantined'] = lines;
    }
    return counts;
  }

  private async versionDirs(): Promise<{ source: string; version: string }[]> {
    const found: { source: string; version: string }[] = [];
    for (const source of (await directoryEntries(this.dir)).sort()) {
      for (const version of (await directoryEntries(path.join(this.dir, source))).sort()) {
        if (version.includes('.tmp-')) continue;
        found.push({ source: decodeURIComponent(source), version: decodeURIComponent(version) });
      }
    }
    return found;
  }

  private versionDir(source: string, version: string): string {
    return path.join(this.dir, safeName(source), safeName(version));
  }

  private schemaFile(
    source: string,
    version: string,
    schema: string,
    kind: 'accepted' | 'quarantined',
  ): string {
    return path.join(this.versionDir(source, version), `${safeName(schema)}.${kind}.ndjson`);
  }

  /** Creates a directory and flushes each new entry up the chain, so its files survive a crash. */
  private async makeDurableDir(dir: string): Promise<void> {
    const created = await mkdir(dir, { recursive: true });
    if (created === undefined) return;
    for (let d = dir; d.length >= created.length; d = path.dirname(d)) await fsyncPath(path.dirname(d));
  }
}

/** A name that is safe as one path segment (no separators, never "." or ".."), reversible with decodeURIComponent. */
function safeName(name: string): string {
  return encodeURIComponent(name).replace(/^\./, '%2E');
}

/** Keys sort by UTF-16 code units, the same on every machine and locale. */
function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function readNdjson<T>(file: string): Promise<T[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as T);
}
