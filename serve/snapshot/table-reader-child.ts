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

/** A table's rows in messages of about MESSAGE_BYTES (one, empty, for a table of none). */
const replyRows = (id: number, rows: unknown[]) => {
  let chunk: unknown[] = [];
  let bytes = 0;
  rows.forEach((row, i) => {
    chunk.push(row);
    bytes += serialize(row).length;
    if (bytes >= MESSAGE_BYTES && i < rows.length - 1) {
      reply({ id, rows: chunk, more: true });
      chunk = [];
      bytes = 0;
    }
  });
  reply({ id, rows: chunk });
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
