import { serialize } from 'node:v8';
import { localLake } from '../../data-lake/lake.ts';
import { processMemoryDb } from '../../data-lake/memory-db.ts';
import { openSnapshot } from '../../data-lake/snapshot-reader.ts';
import { MESSAGE_BYTES, type TableReply, type TableRequest } from './child-process-snapshot-reader.ts';

// A child process that reads tables of one snapshot for the serving process (see
// child-process-snapshot-reader.ts). It exits when the parent lets go of it, and DuckDB's memory with it: every
// read uses the one in-memory DuckDB.
const [lakeDir, id] = process.argv.slice(2) as [string, string];
const reader = await openSnapshot(localLake(lakeDir), id, await processMemoryDb());
const reply = (message: TableReply) => void process.send!(message);

/** How many rows, spread over a table, tell its serialised bytes per row. */
const SAMPLE_ROWS = 100;

/**
 * A table's rows in messages of about MESSAGE_BYTES (one, empty, for a table of none), as many rows to a
 * message as a sample's bytes per row says fit: serialising every row to count its bytes took 0.4 s of a
 * snapshot load's CPU.
 */
const replyRows = (id: number, rows: unknown[]) => {
  const step = Math.max(1, Math.floor(rows.length / SAMPLE_ROWS));
  const sample = rows.filter((_, i) => i % step === 0);
  const bytesPerRow = serialize(sample).length / Math.max(1, sample.length);
  const perMessage = Math.max(1, Math.floor(MESSAGE_BYTES / bytesPerRow));
  let start = 0;
  for (; start + perMessage < rows.length; start += perMessage)
    reply({ id, rows: rows.slice(start, start + perMessage), more: true });
  reply({ id, rows: rows.slice(start) });
};

process.on('message', (request: TableRequest) => {
  const { id } = request;
  const answer: Promise<void> =
    'table' in request
      ? reader.rows(request.table).then((rows) => replyRows(id, rows))
      : 'columnsOf' in request
        ? reader.columns(request.columnsOf).then((columns) => reply({ id, columns }))
        : reader.writeFloat64File(request.file, request.sql).then((file) => reply({ id, file }));
  answer.catch((err: unknown) => reply({ id, error: (err as Error).message }));
});
process.on('disconnect', () => process.exit(0));
reply({ ready: true });
