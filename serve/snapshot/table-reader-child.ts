import { openSnapshot } from '../../data-lake/snapshot-reader.ts';
import type { TableReply, TableRequest } from './child-process-snapshot-reader.ts';

// A child process that reads tables of one snapshot for the serving process (see
// child-process-snapshot-reader.ts). It exits when the parent lets go of it.
const [lakeDir, id] = process.argv.slice(2) as [string, string];
const reader = await openSnapshot(lakeDir, id);
const reply = (message: TableReply) => process.send!(message);

process.on('message', (request: TableRequest) => {
  const answer: Promise<TableReply> =
    'table' in request
      ? reader.rows(request.table).then((rows) => ({ id: request.id, rows }))
      : 'columnsOf' in request
        ? reader.columns(request.columnsOf).then((columns) => ({ id: request.id, columns }))
        : reader.writeFloat64File(request.file, request.sql).then((file) => ({ id: request.id, file }));
  answer.then(reply, (err: unknown) => reply({ id: request.id, error: (err as Error).message }));
});
process.on('disconnect', () => process.exit(0));
reply({ ready: true });
