import {
  PARQUET_TYPE,
  lakeFileParamsSchema,
  lakeListingSchema,
  parquetBytesSchema,
} from '../../schemas/lake-api.ts';
import type { ApiModule } from '../api-module.ts';
import { documentedError, errors } from '../errors.ts';
import { sendFile } from '../http/send-file.ts';
import { lakeServingModule, type LakeFiles } from './lake-files.ts';

const FILE_DESCRIPTION =
  'The table’s Parquet file (zstd), byte for byte as the lake holds it, for DuckDB’s httpfs, pandas/pyarrow, ' +
  'Spark or any HTTP client (docs/lake-over-http.md). `HEAD` gives its size; a single byte `Range` gets 206 ' +
  'with that slice. The strong `ETag` names the snapshot and the file’s bytes: `If-None-Match` gets 304, and ' +
  '`If-Range` with an older snapshot’s tag gets the whole current file (200) rather than a slice of other ' +
  'bytes. A download in progress keeps the bytes of the snapshot it started on when a new one is published. ' +
  'Never kept in the response cache.';

/** The published snapshot's tables over HTTP: a listing, and each manifest table's Parquet file. */
export function createLakeApi(): ApiModule<LakeFiles> {
  return {
    serving: lakeServingModule,
    register(app, ctx) {
      app.get(
        '/api/v1/lake',
        {
          schema: {
            summary:
              'The published snapshot’s tables: rows, columns with their types, and where each file is',
            description:
              'Every table of the manifest of the snapshot being served, by name, with its Parquet file’s ' +
              'size, SHA-256 and URL, and its columns as DuckDB reads them.',
            operationId: 'getLakeTables',
            response: { 200: lakeListingSchema },
          },
        },
        async (request) => ctx.data(request).listing,
      );
      // A route per method: one operationId each (HEAD first, so GET's is not Fastify's implicit HEAD).
      for (const method of ['HEAD', 'GET'] as const)
        app.route({
          method,
          url: '/api/v1/lake/:table.parquet',
          // Listed in /spec.json as an operation of its own, `getLakeTableFile-head`.
          config: { swagger: { exposeHeadRoute: true } },
          schema: {
            summary: 'A table of the published snapshot, as its Parquet file',
            description: FILE_DESCRIPTION,
            operationId: 'getLakeTableFile',
            params: lakeFileParamsSchema,
            response: {
              200: {
                description: 'The whole file',
                content: { [PARQUET_TYPE]: { schema: parquetBytesSchema } },
              },
              206: {
                description: 'The byte range asked for (`Content-Range` says which)',
                content: { [PARQUET_TYPE]: { schema: parquetBytesSchema } },
              },
              404: documentedError(
                'No table of that name in the snapshot being served (field "table")',
                errors.notInData(
                  'No table "zipz" in snapshot 20261121T120000Z-3f9a1c; GET /api/v1/lake lists them',
                  'table',
                ),
              ),
              416: documentedError(
                'The range starts past the end of the file (`Content-Range: bytes */<size>`)',
                errors.rangeNotSatisfiable(612_337),
              ),
            },
          },
          handler: async (request, reply) => {
            const { table } = request.params;
            const { files, listing } = ctx.data(request);
            const file = files.get(table);
            if (file === undefined) {
              throw errors.notInData(
                `No table "${table}" in snapshot ${listing.snapshot.id}; GET /api/v1/lake lists them`,
                'table',
              );
            }
            return sendFile(request, reply, file);
          },
        });
    },
  };
}
