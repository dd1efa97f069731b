import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect } from 'vitest';
import { it } from '../support/temp-dir.ts';
import { DirectoryLockedError } from '../../eventlog/directory-lock.ts';
import { EmbeddedEventLog } from '../../eventlog/embedded-log.ts';
import type { ConsumedRecord } from '../../eventlog/event-log.ts';
import { encodeFrames } from '../../eventlog/record-frame.ts';
import { interleavedRecords, programRecord, sequenceOf } from './envelopes.ts';

const childScript = fileURLToPath(new URL('./fixtures/drain-without-committing.ts', import.meta.url));

let directory: string;
const opened: EmbeddedEventLog[] = [];
const openLog = async (): Promise<EmbeddedEventLog> => {
  const log = await EmbeddedEventLog.open({ directory });
  opened.push(log);
  return log;
};
const drainAll = async (log: EmbeddedEventLog, groupId: string): Promise<ConsumedRecord[]> => {
  const records: ConsumedRecord[] = [];
  await log.drain({ groupId, topics: ['programs'], onBatch: async (batch) => void records.push(...batch) });
  return records;
};
const partitionFile = () => path.join(directory, 'topics', 'programs', '0.log');

it.beforeEach(async ({ tempDir }) => {
  directory = tempDir;
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((log) => log.close()));
});

describe('embedded event log after a crash', () => {
  it('redelivers a batch whose consumer was killed (kill -9) between handling and committing', async () => {
    const log = await openLog();
    await log.ensureTopic('programs', 1);
    await log.publish('programs', interleavedRecords('program', 2, 3));
    await log.close();

    const child = spawn(process.execPath, ['--import', 'tsx', childScript, directory, 'lake', 'programs'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [handledLine] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    expect(JSON.parse(await readFile(path.join(directory, 'LOCK', 'holder.json'), 'utf8'))).toMatchObject({
      pid: child.pid,
    });
    child.kill('SIGKILL');
    await once(child, 'exit');

    const reopened = await openLog();
    const redelivered = await drainAll(reopened, 'lake');

    expect(handledLine).toBe('handled 0,1,2,3,4,5');
    expect(redelivered.map((r) => r.offset)).toEqual(['0', '1', '2', '3', '4', '5']);
  });

  it('cuts off a torn tail on reopen, keeps every acknowledged record and appends after them', async () => {
    const log = await openLog();
    await log.ensureTopic('programs', 1);
    await log.publish('programs', interleavedRecords('program', 1, 3));
    await log.close();
    const acknowledgedBytes = (await stat(partitionFile())).size;
    const torn = encodeFrames([programRecord('program-0', 3)]).bytes;
    await appendFile(partitionFile(), torn.subarray(0, torn.length - 7));

    const reopened = await openLog();
    expect((await stat(partitionFile())).size).toBe(acknowledgedBytes);
    await reopened.publish('programs', [programRecord('program-0', 4)]);
    const records = await drainAll(reopened, 'lake');

    expect(records.map((r) => [r.offset, sequenceOf(r)])).toEqual([
      ['0', 0],
      ['1', 1],
      ['2', 2],
      ['3', 4],
    ]);
  });

  it('cuts off a frame whose bytes no longer match its checksum, with everything after it', async () => {
    const log = await openLog();
    await log.ensureTopic('programs', 1);
    await log.publish('programs', interleavedRecords('program', 1, 2));
    await log.close();
    const bytes = await readFile(partitionFile());
    const secondFrame = encodeFrames([programRecord('program-0', 1)]).bytes.length;
    const flipped = bytes.length - secondFrame + 20;
    bytes[flipped] = bytes[flipped]! ^ 0xff;
    await writeFile(partitionFile(), bytes);

    const records = await drainAll(await openLog(), 'lake');

    expect(records.map((r) => [r.offset, sequenceOf(r)])).toEqual([['0', 0]]);
    expect((await stat(partitionFile())).size).toBe(bytes.length - secondFrame);
  });

  it('reads a log whose only partition file lost its whole content', async () => {
    const log = await openLog();
    await log.ensureTopic('programs', 1);
    await log.publish('programs', interleavedRecords('program', 1, 2));
    await log.close();
    await truncate(partitionFile(), 5);

    expect(await drainAll(await openLog(), 'lake')).toEqual([]);
  });
});

describe('embedded event log lock', () => {
  it('refuses a second open of the same directory in one process', async () => {
    await openLog();
    await expect(EmbeddedEventLog.open({ directory })).rejects.toBeInstanceOf(DirectoryLockedError);
  });

  it('lets only one of two simultaneous opens in one process have the directory', async () => {
    const results = await Promise.allSettled([
      EmbeddedEventLog.open({ directory }),
      EmbeddedEventLog.open({ directory }),
    ]);
    const opens = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    opened.push(...opens);

    expect(opens).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({
      reason: expect.any(DirectoryLockedError),
    });
  });

  it('refuses a directory whose lock names a live process', async () => {
    await openLog().then((log) => log.close());
    await writeFile(path.join(directory, 'LOCK'), `${process.ppid}\n`);

    await expect(EmbeddedEventLog.open({ directory })).rejects.toThrow(
      `event log directory ${directory} is in use by process ${process.ppid}`,
    );
  });

  it('takes over a lock left by a process that no longer exists', async () => {
    const exited = spawn(process.execPath, ['-e', '0']);
    await once(exited, 'exit');
    await openLog().then((log) => log.close());
    await writeFile(path.join(directory, 'LOCK'), `${exited.pid}\n`);

    const log = await openLog();

    expect(JSON.parse(await readFile(path.join(directory, 'LOCK', 'holder.json'), 'utf8'))).toMatchObject({
      pid: process.pid,
    });
    await log.close();
    await expect(stat(path.join(directory, 'LOCK'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('releases the lock on close so the directory can be opened again', async () => {
    const log = await openLog();
    await log.close();
    await expect(openLog()).resolves.toBeInstanceOf(EmbeddedEventLog);
  });
});

describe('embedded event log input checks', () => {
  it('rejects topic names Kafka would reject', async () => {
    const log = await openLog();
    await expect(log.ensureTopic('../outside')).rejects.toThrow('topic "../outside" is not a valid name');
    await expect(log.publish('two words', [programRecord('program-0', 0)])).rejects.toThrow(
      'topic "two words" is not a valid name',
    );
  });

  it('rejects a partition count that is not a positive integer', async () => {
    const log = await openLog();
    await expect(log.ensureTopic('programs', 0)).rejects.toThrow(
      'partitions must be an integer from 1 to 10000',
    );
  });

  it('creates topics with the default partition count', async () => {
    const log = await EmbeddedEventLog.open({ directory, defaultPartitions: 3 });
    opened.push(log);
    await log.ensureTopic('programs');
    expect(
      JSON.parse(await readFile(path.join(directory, 'topics', 'programs', 'topic.json'), 'utf8')),
    ).toEqual({
      partitions: 3,
    });
  });

  it('refuses calls after close', async () => {
    const log = await EmbeddedEventLog.open({ directory });
    await log.close();
    await expect(log.publish('programs', [programRecord('program-0', 0)])).rejects.toThrow('is closed');
  });
});

describe('embedded event log with a committed offset past a damaged end', () => {
  it('delivers records published after the damage instead of skipping them', async () => {
    const log = await openLog();
    await log.ensureTopic('programs', 1);
    await log.publish('programs', interleavedRecords('program', 1, 3));
    expect(await drainAll(log, 'lake')).toHaveLength(3);
    await log.close();
    const bytes = await readFile(partitionFile());
    await truncate(partitionFile(), bytes.length - 3);

    const reopened = await openLog();
    await reopened.publish('programs', [programRecord('program-0', 7)]);
    const records = await drainAll(reopened, 'lake');

    expect(records.map((r) => [r.offset, sequenceOf(r)])).toEqual([['2', 7]]);
  });
});
