import type { RecordSchema } from '../../ingest/source.ts';

/** Every record schema that travels on the event log; transform validates each payload with its entry. */
export const recordSchemas: RecordSchema[] = [];
