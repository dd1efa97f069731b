import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { localCopy, type Lake } from '../../data-lake/lake.ts';
import {
  openSnapshot,
  type Float64File,
  type ParquetColumn,
  type SnapshotReader,
} from '../../data-lake/snapshot-reader.ts';

/** A table's rows or columns, or a query written to a float64 file (`SnapshotReader.writeFloat64File`). */
export type TableRequest = { id: number } & (
  { table: string } | { columnsOf: string } | { file: string; sql: string }
);

export type TableReply =
  | { ready: true }
  /** A table's rows come in messages of about MESSAGE_BYTES, each but the last with `more`. */
  | { id: number; rows: unknown[]; more?: true }
  | { id: number; columns: ParquetColumn[] }
  | { id: number; file: Float64File }
  | { id: number; error: string };

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * The child runs as this module does: plain node on the compiled .js (npm start), or through tsx on the
 * .ts sources (tests, dev).
 */
const COMPILED = import.meta.url.endsWith('.js');
const CHILD_ENTRY = fileURLToPath(new URL(`./table-reader-child.${COMPILED ? 'js' : 'ts'}`, import.meta.url));
const CHILD_EXEC_ARGV = COMPILED ? [] : ['--import', import.meta.resolve('tsx')];
/** A module load asks for its tables one after another: the child waits this long for the next. */
const IDLE_MS = 500;

/**
 * Rows per message from the child: about as many as fit this many bytes serialised (at least one).
 * The serving process decodes a message in one turn of its event loop while it answers requests from the
 * snapshot it serves: the national locations table in one message held the loop for 136 ms, and the
 * states table's 6.4 MB for 51 ms; a message of this size takes a few.
 */
export const MESSAGE_BYTES = 256 * 1024;

/**
 * Opens a snapshot whose tables are read by a short-lived child process and handed over by structured
 * clone. DuckDB's native memory for a read (large for the national locations table) stays in the
 * allocator of the process that made it, long after the rows are returned: read in the serving process,
 * it would count against the server's memory for as long as it runs. The child exits once reads stop,
 * and takes that memory with it. The manifest is read here, as `openSnapshot` does (no DuckDB needed).
 */
export async function openSnapshotInChildProcess(lake: Lake, id: string): Promise<SnapshotReader> {
  // The child reads this machine's copy of the snapshot, a directory lake, whatever the lake's store.
  const local = await localCopy(lake, id);
  const { dir, manifest } = await openSnapshot(local, id);
  return new ChildProcessSnapshotReader(local.workDir, id, dir, manifest);
}

class ChildProcessSnapshotReader implements SnapshotReader {
  private child: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  /** Reads run one at a time, in the order asked. */
  private queue: Promise<unknown> = Promise.resolve();
  private idleTimer: NodeJS.Timeout | undefined;
  private requests = 0;

  constructor(
    private readonly lakeDir: string,
    readonly id: string,
    readonly dir: string,
    readonly manifest: SnapshotReader['manifest'],
  ) {}

  rows<T = Record<string, unknown>>(table: string): Promise<T[]> {
    return this.enqueue(`table "${table}"`, { table }).then((reply) => (reply as { rows: T[] }).rows);
  }

  columns(table: string): Promise<ParquetColumn[]> {
    return this.enqueue(`columns of "${table}"`, { columnsOf: table }).then(
      (reply) => (reply as { columns: ParquetColumn[] }).columns,
    );
  }

  writeFloat64File(name: string, sql: string): Promise<Float64File> {
    return this.enqueue(`file "${name}"`, { file: name, sql }).then(
      (reply) => (reply as { file: Float64File }).file,
    );
  }

  private enqueue(what: string, request: DistributiveOmit<TableRequest, 'id'>): Promise<TableReply> {
    const read = this.queue.then(() => this.readOne(what, request));
    this.queue = read.catch(() => undefined);
    return read;
  }

  private async readOne(what: string, request: DistributiveOmit<TableRequest, 'id'>): Promise<TableReply> {
    clearTimeout(this.idleTimer);
    const id = ++this.requests;
    try {
      const child = await this.start();
      return await new Promise<TableReply>((resolve, reject) => {
        const rows: unknown[] = [];
        const onMessage = (reply: TableReply) => {
          if (!('id' in reply) || reply.id !== id) return;
          if ('rows' in reply) for (const row of reply.rows) rows.push(row);
          if ('more' in reply) return;
          done();
          if ('error' in reply) reject(new Error(reply.error));
          else resolve('rows' in reply ? { id, rows } : reply);
        };
        const onExit = (code: number | null) => {
          done();
          reject(new Error(`snapshot ${this.id}: the table reader exited (${code}) while reading ${what}`));
        };
        const done = () => {
          child.off('message', onMessage);
          child.off('exit', onExit);
        };
        child.on('message', onMessage);
        child.on('exit', onExit);
        child.send({ id, ...request } satisfies TableRequest);
      });
    } finally {
      this.idleTimer = setTimeout(() => this.stop(), IDLE_MS);
      this.idleTimer.unref();
    }
  }

  private start(): Promise<ChildProcess> {
    if (this.child !== null && this.ready !== null) {
      const child = this.child;
      return this.ready.then(() => child);
    }
    const child = fork(CHILD_ENTRY, [this.lakeDir, this.id], {
      execArgv: CHILD_EXEC_ARGV,
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child = child;
    child.on('exit', () => {
      if (this.child === child) {
        this.child = null;
        this.ready = null;
      }
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (reply: TableReply) => {
        if (!('ready' in reply)) return;
        child.off('exit', onExit);
        child.off('message', onMessage);
        resolve();
      };
      const onExit = (code: number | null) =>
        reject(new Error(`snapshot ${this.id}: the table reader exited (${code}) before it was ready`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
    return this.ready.then(() => child);
  }

  private stop(): void {
    const child = this.child;
    this.child = null;
    this.ready = null;
    if (child?.connected) child.disconnect();
  }
}
