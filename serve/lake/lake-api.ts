import { openLake } from '../../data-lake/lake.ts';
import type { FastifySchema } from 'fastify';
import {
  PARQUET_TYPE,
  heldListingSchema,
  lakeFileParamsSchema,
  lakeListingSchema,
  lakeSnapshotFileParamsSchema,
  parquetBytesSchema,
} from '../../schemas/lake-api.ts';
import type { RouteGroup, RouteGroupContext, ZodApp } from '../route-group.ts';
import { documentedError, errors } from '../errors.ts';
import { sendFile } from '../http/send-file.ts';
import { lakeFilesLoader, type LakeFiles } from './lake-files.ts';
import { LakeSnapshots } from './lake-snapshots.ts';

const FILE_DESCRIPTION =
  'The table’s Parquet file (zstd), byte for byte as the lake holds it, for DuckDB’s httpfs, pandas/pyarrow, ' +
  'Spark or any HTTP client (docs/lake-over-http.md). `HEAD` gives its size; a single byte `Range` gets 206 ' +
  'with that slice. The strong `ETag` names the snapshot and the file’s bytes: `If-None-Match` gets 304. ' +
  'A key’s requests for one file URL count once a rate-limit window, however many ranges a reader asks. ' +
  'Never kept in the response cache.';

const PINNED_DESCRIPTION =
  `${FILE_DESCRIPTION} The URL names its snapshot, so its bytes never change (\`Cache-Control: immutable\`) ` +
  'and a reader whose range requests span a publish still reads one snapshot: the one before the last ' +
  'publish, and earlier ones the lake still holds, stay readable. A snapshot held for review is readable ' +
  'only with a reviewer key (`npm run keys -- create --name <name> --reviewer`).';

const CURRENT_DESCRIPTION =
  `${FILE_DESCRIPTION} This URL follows the published snapshot: \`If-Range\` with an older snapshot’s tag ` +
  'gets the whole current file (200) rather than a slice of other bytes. A reader that fetches a file in ' +
  'several requests should follow the pinned URL of `GET /api/v1/lake` instead.';

const fileResponses = (notFound: string, example: string) => ({
  200: { description: 'The whole file', content: { [PARQUET_TYPE]: { schema: parquetBytesSchema } } },
  206: {
    description: 'The byte range asked for (`Content-Range` says which)',
    content: { [PARQUET_TYPE]: { schema: parquetBytesSchema } },
  },
  404: documentedError(notFound, errors.notInData(example, 'table')),
  416: documentedError(
    'The range starts past the end of the file (`Content-Range: bytes */<size>`)',
    errors.rangeNotSatisfiable(612_337),
  ),
});

const notReviewer = () =>
  errors.forbidden(
    'This key may not read snapshots held for review; a reviewer key can: npm run keys -- create --name <name> --reviewer',
    'snapshot',
  );

/**
 * The lake over HTTP: the published snapshot's tables listed with URLs pinned to it, each snapshot's table
 * files (held ones for reviewer keys), the held snapshots listed for review, and the published snapshot's
 * files under URLs that follow it.
 */
export function createLakeApi(): RouteGroup<LakeFiles> {
  return {
    loader: lakeFilesLoader,
    register(app, ctx) {
      const snapshots = new LakeSnapshots(openLake(ctx.config));
      registerListings(app, ctx, snapshots);
      registerFileRoutes(app, {
        url: '/api/v1/lake/snapshots/:snapshot/:table.parquet',
        operationId: 'getLakeSnapshotTableFile',
        schema: {
          summary: 'A table of a snapshot, as its Parquet file, under a URL that names the snapshot',
          description: PINNED_DESCRIPTION,
          params: lakeSnapshotFileParamsSchema,
          response: {
            ...fileResponses(
              'No such snapshot in the lake (collected by `lake gc`, or never), or no such table in it',
              'No table "zipz" in snapshot 20261121T120000Z-3f9a1c; GET /api/v1/lake lists them',
            ),
            403: documentedError(
              'The snapshot is held for review and the key is not a reviewer key',
              notReviewer(),
            ),
          },
        },
        handler: async (request, reply) => {
          const { snapshot, table } = request.params as { snapshot: string; table: string };
          const served = ctx.data(request);
          if (snapshot === served.listing.snapshot.id) {
            return sendFile(request, reply, servedFile(served, table), { pinned: true });
          }
          const found = await snapshots.tableFile(snapshot, table);
          if (found === null) {
            throw errors.notInData(
              `No table "${table}" in a snapshot "${snapshot}" of the lake; GET /api/v1/lake lists the published one`,
              'table',
            );
          }
          if (found.held && request.apiKey?.reviewer !== true) throw notReviewer();
          return sendFile(request, reply, found.file, { pinned: true });
        },
      });
      registerFileRoutes(app, {
        url: '/api/v1/lake/:table.parquet',
        operationId: 'getLakeTableFile',
        schema: {
          summary: 'A table of the published snapshot, as its Parquet file',
          description: CURRENT_DESCRIPTION,
          params: lakeFileParamsSchema,
          response: fileResponses(
            'No table of that name in the snapshot being served (field "table")',
            'No table "zipz" in snapshot 20261121T120000Z-3f9a1c; GET /api/v1/lake lists them',
          ),
        },
        handler: async (request, reply) =>
          sendFile(
            request,
            reply,
            servedFile(ctx.data(request), (request.params as { table: string }).table),
          ),
      });
    },
  };
}

/** The published snapshot's tables, and (for a reviewer key) the snapshots held for review. */
function registerListings(app: ZodApp, ctx: RouteGroupContext<LakeFiles>, snapshots: LakeSnapshots): void {
  app.get(
    '/api/v1/lake',
    {
      schema: {
        summary: 'The published snapshot’s tables: rows, columns with their types, and where each file is',
        description:
          'Every table of the manifest of the snapshot being served, by name, with its Parquet file’s ' +
          'size, SHA-256 and URL (pinned to the snapshot), and its columns as DuckDB reads them.',
        operationId: 'getLakeTables',
        response: { 200: lakeListingSchema },
      },
    },
    async (request) => ctx.data(request).listing,
  );
  app.get(
    '/api/v1/lake/held',
    {
      // Whether a key may see them, and whether one is held, changes without the snapshot changing.
      config: { keepAnswer: () => false },
      schema: {
        summary: 'The snapshots the pipeline wrote but held for review (reviewer keys)',
        description:
          'Each snapshot a pipeline run held because it changed implausibly against the published one ' +
          '(docs/pipeline-and-lake.md, write–audit–publish): what it was compared with, why it was held, ' +
          'and its tables’ files, pinned to it, for review before `npm run lake -- publish`.',
        operationId: 'getLakeHeldSnapshots',
        response: {
          200: heldListingSchema,
          403: documentedError('The key is not a reviewer key (field "snapshot")', notReviewer()),
        },
      },
    },
    async (request) => {
      if (request.apiKey?.reviewer !== true) throw notReviewer();
      return snapshots.held();
    },
  );
}

/** A table of the served snapshot, or a 404 naming it. */
function servedFile({ files, listing }: LakeFiles, table: string) {
  const file = files.get(table);
  if (file === undefined) {
    throw errors.notInData(
      `No table "${table}" in snapshot ${listing.snapshot.id}; GET /api/v1/lake lists them`,
      'table',
    );
  }
  return file;
}

/**
 * A file route per method, so each has an operationId of its own (HEAD first, so GET's is not Fastify's
 * implicit HEAD): listed in /spec.json as `<operationId>` and `<operationId>-head`. A key's requests for
 * one URL count once a rate-limit window: a remote Parquet reader fetches a file in many ranges.
 */
function registerFileRoutes(
  app: ZodApp,
  route: {
    url: string;
    operationId: string;
    schema: FastifySchema;
    handler: Parameters<ZodApp['route']>[0]['handler'];
  },
): void {
  for (const method of ['HEAD', 'GET'] as const)
    app.route({
      method,
      url: route.url,
      config: { swagger: { exposeHeadRoute: true }, rateLimitOncePerUrl: true },
      schema: { ...route.schema, operationId: route.operationId },
      handler: route.handler,
    });
}
