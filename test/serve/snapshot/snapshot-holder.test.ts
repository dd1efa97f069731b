import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { loadSnapshot, SnapshotHolder } from '../../../serve/snapshot/snapshot-holder.ts';
import { tableEntries, type SnapshotLoader } from '../../../serve/snapshot/snapshot-loader.ts';
import type { SnapshotReader } from '../../../data-lake/snapshot-reader.ts';
import {
  MemorySnapshotSource,
  memoryReader,
  programRows,
  COUNTIES,
  PROGRAMS,
  type ProgramRow,
} from '../../support/serve-fixtures.ts';
import { readTable } from '../../../data-lake/snapshot-reader.ts';

const programs: SnapshotLoader<ProgramRow[]> = {
  name: 'programs',
  tables: [PROGRAMS],
  load: (s) => readTable(s, PROGRAMS),
};
const counties: SnapshotLoader<number> = {
  name: 'counties',
  tables: [COUNTIES],
  load: async (s) => (await readTable(s, COUNTIES)).length,
};

function capturingLogger() {
  const lines: { level: number; msg: string; snapshot?: string; serving?: string }[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('loadSnapshot', () => {
  it('loads every module into one frozen object', async () => {
    const reader = memoryReader('s1', { programs: programRows('s1', 2), counties: [{}, {}, {}] });
    const loaded = await loadSnapshot(reader, [programs, counties]);
    expect(loaded.id).toBe('s1');
    expect(loaded.createdAt).toBe('2026-11-21T12:00:00.000Z');
    expect(loaded.data.get('programs')).toEqual(programRows('s1', 2));
    expect(loaded.data.get('counties')).toBe(3);
    expect(Object.isFrozen(loaded)).toBe(true);
  });

  it('refuses a snapshot missing a table a module reads, naming both', async () => {
    await expect(loadSnapshot(memoryReader('s1'), [programs, counties])).rejects.toThrow(
      'snapshot s1 is incomplete: counties needs table counties',
    );
  });
});

// A publish mostly changes a few tables: a module whose data is made from the same manifest entries as the
// snapshot served keeps that data, and only the modules reading a changed table read the new snapshot.
describe('loadSnapshot after another snapshot', () => {
  /** `loader` stating that its data is made from its tables, and noting each load in `loads`. */
  const noted = <T>(loader: SnapshotLoader<T>, loads: string[], madeFrom = true): SnapshotLoader<T> => ({
    ...loader,
    load: (snapshot) => {
      loads.push(`${loader.name} from ${snapshot.id}`);
      return loader.load(snapshot);
    },
    ...(madeFrom ? { madeFrom: (manifest) => tableEntries(manifest, loader.tables) } : {}),
  });
  /** A memory snapshot of 2 programs (`programsSha256` their file's SHA-256) and 3 counties. */
  const snapshot = (id: string, programsSha256: string): SnapshotReader => {
    const reader = memoryReader(id, { programs: programRows(id, 2), counties: [{}, {}, {}] });
    const { tables } = reader.manifest;
    tables.programs = { ...tables.programs!, sha256: programsSha256 };
    return reader;
  };

  it('keeps the data of a module whose tables are unchanged, and loads again one whose table changed', async () => {
    const loads: string[] = [];
    const loaders = [noted(programs, loads), noted(counties, loads)];
    const first = await loadSnapshot(snapshot('s1', 'a'.repeat(64)), loaders);
    const second = await loadSnapshot(snapshot('s2', 'b'.repeat(64)), loaders, first);
    expect(loads).toEqual(['programs from s1', 'counties from s1', 'programs from s2']);
    expect(second.id).toBe('s2');
    expect(second.data.get('programs')).toEqual(programRows('s2', 2));
    expect(second.data.get('counties')).toBe(3);
  });

  it('loads a module again for every snapshot when it does not say what its data is made from', async () => {
    const loads: string[] = [];
    const loaders = [noted(counties, loads, false)];
    const first = await loadSnapshot(snapshot('s1', 'a'.repeat(64)), loaders);
    await loadSnapshot(snapshot('s2', 'a'.repeat(64)), loaders, first);
    expect(loads).toEqual(['counties from s1', 'counties from s2']);
  });
});

describe('SnapshotHolder', () => {
  it('holds nothing until CURRENT names a snapshot, then follows CURRENT', async () => {
    const source = new MemorySnapshotSource();
    const holder = new SnapshotHolder({
      source,
      loaders: [programs],
      pollMs: 60_000,
      logger: pino({ level: 'silent' }),
    });
    await holder.start();
    expect(holder.current()).toBeNull();
    source.publish(memoryReader('s1'));
    await holder.refresh();
    expect(holder.current()?.id).toBe('s1');
    const first = holder.current();
    await holder.refresh();
    expect(holder.current()).toBe(first); // unchanged CURRENT: nothing reloaded
    expect(source.opened).toBe(1);
    source.publish(memoryReader('s2'));
    await holder.refresh();
    expect(holder.current()?.data.get('programs')).toEqual(programRows('s2'));
    holder.close();
  });

  it('picks a new snapshot up by polling', async () => {
    const source = new MemorySnapshotSource();
    source.publish(memoryReader('s1'));
    const holder = new SnapshotHolder({
      source,
      loaders: [programs],
      pollMs: 50,
      logger: pino({ level: 'silent' }),
    });
    await holder.start();
    source.publish(memoryReader('s2'));
    await expect.poll(() => holder.current()?.id, { timeout: 5000 }).toBe('s2');
    holder.close();
  });

  it('keeps serving the previous snapshot when a load fails, logging the failure once', async () => {
    const { logger, lines } = capturingLogger();
    const source = new MemorySnapshotSource();
    source.publish(memoryReader('s1'));
    const holder = new SnapshotHolder({ source, loaders: [programs], pollMs: 60_000, logger });
    await holder.start();
    source.publishBroken('s2');
    await holder.refresh();
    await holder.refresh();
    expect(holder.current()?.id).toBe('s1');
    source.publish(memoryReader('s3', { other: [] }));
    await holder.refresh();
    expect(holder.current()?.id).toBe('s1');
    const errors = lines.filter((l) => l.level === 50);
    expect(errors.map((l) => [l.msg, l.snapshot, l.serving])).toEqual([
      ['snapshot load failed; still serving the previous one', 's2', 's1'],
      ['snapshot load failed; still serving the previous one', 's3', 's1'],
    ]);
    source.publish(memoryReader('s4'));
    await holder.refresh();
    expect(holder.current()?.id).toBe('s4');
    holder.close();
  });
});
