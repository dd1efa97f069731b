import { z } from 'zod';

/**
 * Requests and answers of the lake over HTTP (docs/lake-over-http.md): the published snapshot's tables,
 * listed, and each one's Parquet file, served as it is in the lake.
 */

/** The media type of a Parquet file (registered with IANA in 2024). */
export const PARQUET_TYPE = 'application/vnd.apache.parquet';

export const lakeColumnSchema = z.object({
  name: z.string(),
  type: z.string().describe('The type DuckDB reads the column as: VARCHAR, BIGINT, DOUBLE, BOOLEAN, JSON, …'),
});

export const lakeTableSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    rows: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative().describe('Size of the Parquet file'),
    sha256: z.string().describe("SHA-256 of the Parquet file's bytes (hex)"),
    url: z.string().describe('Where the Parquet file is served, relative to this server'),
    columns: z.array(lakeColumnSchema),
  })
  .meta({ id: 'LakeTable' });

const lakeListingExample = {
  snapshot: { id: '20261121T120000Z-3f9a1c', created_at: '2026-11-21T12:00:00.000Z' },
  tables: [
    {
      name: 'zips',
      description: 'ZIP codes with their city, state and county',
      rows: 41_483,
      bytes: 612_337,
      sha256: '9b1f0c6d2e8a4b7c5d3e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c',
      url: '/api/v1/lake/zips.parquet',
      columns: [
        { name: 'zip', type: 'VARCHAR' },
        { name: 'city', type: 'VARCHAR' },
        { name: 'state', type: 'VARCHAR' },
        { name: 'is_zcta', type: 'BOOLEAN' },
      ],
    },
  ],
};

export const lakeListingSchema = z
  .object({
    snapshot: z.object({
      id: z.string().describe('The published snapshot the tables belong to'),
      created_at: z.iso.datetime().describe('When the pipeline wrote the snapshot'),
    }),
    tables: z.array(lakeTableSchema).describe("Every table of the snapshot's manifest, by name"),
  })
  .meta({ id: 'LakeListing', example: lakeListingExample });

export type LakeListing = z.infer<typeof lakeListingSchema>;

/** A Parquet file's bytes, as the spec describes them (they are streamed, never serialised). */
export const parquetBytesSchema = z.string().meta({ format: 'binary' });

export const lakeFileParamsSchema = z.object({
  table: z.string().describe('A table named in `GET /api/v1/lake`').meta({ example: 'zips' }),
});
