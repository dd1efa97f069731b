import { z } from 'zod';

export const auditFindingSchema = z.object({
  table: z.string(),
  check: z.string(),
  /** An error blocks the publish; a warning is recorded in the manifest and logged. */
  severity: z.enum(['error', 'warning']),
  message: z.string(),
  count: z.number().int().nonnegative().optional(),
  examples: z.array(z.string()).max(20).optional(),
});
export type AuditFinding = z.infer<typeof auditFindingSchema>;

export const manifestTableSchema = z.object({
  file: z.string(),
  rows: z.number().int().nonnegative(),
  sha256: z.string(),
  schemaVersion: z.number().int().positive(),
  description: z.string(),
  /** What the table reads: record schemas, tables and (for tables computed through it) event-log topics. */
  inputs: z.object({
    records: z.array(z.string()),
    tables: z.array(z.string()),
    topics: z.array(z.string()).optional(),
  }),
  /**
   * Hash of what the table is built from (inputs, settings, code, schema version): a later run reuses the
   * file while it is unchanged. Absent in snapshots published before fingerprints were per table.
   */
  fingerprint: z.string().optional(),
  /** Hash of the table's code and of everything it imports. */
  code: z.string().optional(),
  /** The settings the table declares, with the values it was built with. */
  settings: z.record(z.string(), z.unknown()).optional(),
});

export const manifestSourceSchema = z.object({
  kind: z.string(),
  location: z.string(),
  version: z.string(),
  contentHash: z.string(),
  fetchedAt: z.string(),
  /** Per record schema: how many records were accepted and how many quarantined. */
  records: z.record(z.string(), z.object({ accepted: z.number().int(), quarantined: z.number().int() })),
});

/** Written beside the Parquet files of every snapshot; the CURRENT pointer names one snapshot id. */
export const manifestSchema = z.object({
  id: z.string(),
  createdAt: z.iso.datetime(),
  parent: z.string().nullable(),
  /** Hash of the tables' fingerprints: equal fingerprints, equal lake. */
  fingerprint: z.string(),
  /** The git commit (or package version) of the code that published the snapshot: provenance only. */
  codeVersion: z.string(),
  /** Hash of the pipeline's own code (building, auditing, writing), part of every table's fingerprint. */
  pipelineCode: z.string().optional(),
  tables: z.record(z.string(), manifestTableSchema),
  sources: z.record(z.string(), manifestSourceSchema),
  audit: z.array(auditFindingSchema),
});
export type Manifest = z.infer<typeof manifestSchema>;
