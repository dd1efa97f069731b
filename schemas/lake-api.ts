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
    url: z
      .string()
      .describe(
        "Where this snapshot's Parquet file is served, relative to this server: pinned to the snapshot, so " +
          'its bytes never change and a reader following it cannot mix two snapshots',
      ),
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
      url: '/api/v1/lake/snapshots/20261121T120000Z-3f9a1c/zips.parquet',
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

export const lakeSnapshotFileParamsSchema = lakeFileParamsSchema.extend({
  snapshot: z
    .string()
    .describe('A snapshot id, as `GET /api/v1/lake` (or, for a reviewer key, `/api/v1/lake/held`) names it')
    .meta({ example: '20261121T120000Z-3f9a1c' }),
});

const heldTableSchema = lakeTableSchema.omit({ columns: true, description: true });

const heldExample = {
  held: [
    {
      id: '20261127T171904547Z-b590f499',
      created_at: '2026-11-27T17:19:04.547Z',
      against: '20261127T171845641Z-61aa07ed',
      findings: [
        {
          table: 'incentives',
          check: 'partition-emptied',
          message: 'a partition that had rows has none',
          examples: ['CA: 147 → 0 rows'],
        },
      ],
      tables: [
        {
          name: 'incentives',
          rows: 4_771,
          bytes: 1_204_113,
          sha256: '4c1f9a7e0b2d3c5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e',
          url: '/api/v1/lake/snapshots/20261127T171904547Z-b590f499/incentives.parquet',
        },
      ],
    },
  ],
};

/** The snapshots the pipeline wrote but held for review, for a reviewer's key (docs/pipeline-and-lake.md). */
export const heldListingSchema = z
  .object({
    held: z.array(
      z.object({
        id: z.string(),
        created_at: z.iso.datetime(),
        against: z.string().describe('The published snapshot its audits compared it with'),
        findings: z
          .array(
            z.object({
              table: z.string(),
              check: z.string(),
              message: z.string(),
              examples: z.array(z.string()),
            }),
          )
          .describe('Why it was held'),
        tables: z.array(heldTableSchema).describe('Its tables, each pinned to it'),
      }),
    ),
  })
  .meta({ id: 'HeldSnapshots', example: heldExample });
export type HeldListing = z.infer<typeof heldListingSchema>;
