import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { loadSnapshot, SnapshotHolder } from '../../../serve/snapshot/snapshot-holder.ts';
import type { SnapshotLoader } from '../../../serve/snapshot/snapshot-loader.ts';
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
