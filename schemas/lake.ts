import { z } from 'zod';

/**
 * How much a finding stops: an `error` (rows that break the table's own rules) fails the run and writes
 * nothing; a `hold` (a table that changed against the published snapshot beyond what its contract finds
 * plausible) writes the snapshot but does not publish it until someone reviews it; a `warning` is recorded
 * in the manifest and logged.
 */
export const AUDIT_SEVERITIES = ['error', 'hold', 'warning'] as const;

export const auditFindingSchema = z.object({
  table: z.string(),
  check: z.string(),
  severity: z.enum(AUDIT_SEVERITIES),
  message: z.string(),
  count: z.number().int().nonnegative().optional(),
  examples: z.array(z.string()).max(20).optional(),
  /** For a comparison with the published snapshot: the partition (e.g. a state) and its figure before and after. */
  partition: z.string().optional(),
  before: z.number().optional(),
  after: z.number().optional(),
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
  /** The columns that identify a row (its contract's key), by which `lake diff` matches rows. */
  key: z.array(z.string()).optional(),
  /** SQL naming a row's partition (its contract's), by which the audits and `lake diff` count rows. */
  partition: z.string().optional(),
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

/** Why a snapshot was written but not published: the blocking findings of its audit against `against`. */
export const holdSchema = z.object({
  /** The snapshot the new one was compared with (CURRENT when it was built). */
  against: z.string(),
  findings: z.array(auditFindingSchema).min(1),
});

/** A held snapshot published after review: who, when and why (`npm run lake -- publish <id> --reason`). */
export const reviewSchema = z.object({
  publishedAt: z.iso.datetime(),
  operator: z.string().min(1),
  reason: z.string().min(1),
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
  /** Present when the run held the snapshot for review instead of publishing it. */
  hold: holdSchema.optional(),
  /** Present once a held snapshot has been published after review. */
  review: reviewSchema.optional(),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** What started a pipeline run. */
export const RUN_TRIGGERS = ['manual', 'scheduled', 'start'] as const;
/** How a run ended; `running` until it does (or for ever, if its process died). */
export const RUN_OUTCOMES = ['running', 'published', 'held', 'unchanged', 'failed'] as const;

/** One pipeline run, as the lake's run history keeps it (LAKE_DIR/runs/<id>.json). */
export const runRecordSchema = z.object({
  id: z.string(),
  trigger: z.enum(RUN_TRIGGERS),
  pid: z.number().int(),
  host: z.string(),
  startedAt: z.iso.datetime(),
  endedAt: z.iso.datetime().nullable(),
  outcome: z.enum(RUN_OUTCOMES),
  /** Why it failed; what it published or held, in a line. */
  detail: z.string().optional(),
  /** CURRENT when the run started. */
  previous: z.string().nullable(),
  /** The snapshot it published or held (the current one when nothing changed). */
  snapshot: z.string().nullable(),
  /** The sources it read, and whether each one's content changed since the version the lake had. */
  sources: z.array(z.object({ source: z.string(), version: z.string(), changed: z.boolean() })),
  /** The tables it rebuilt and those it took over unchanged from CURRENT. */
  tables: z.object({ rebuilt: z.array(z.string()), reused: z.array(z.string()) }).optional(),
  /** Its audit findings by severity, and the holds themselves. */
  findings: z.object({ error: z.number().int(), hold: z.number().int(), warning: z.number().int() }),
  holds: z.array(auditFindingSchema).optional(),
  /**
   * Source versions the run could not use (unreadable, records sharing a key, staged incompletely, or
   * refused with the run by its audits), and the published version used instead when SOURCE_FALLBACK let it.
   */
  rejectedSources: z
    .array(
      z.object({
        source: z.string(),
        version: z.string().nullable(),
        reason: z.string(),
        fallback: z.string().optional(),
      }),
    )
    .optional(),
  /** Keys a source version repeated with identical records, each staged once. */
  collapsedKeys: z
    .array(
      z.object({
        source: z.string(),
        schema: z.string(),
        file: z.string().optional(),
        keys: z.number().int(),
        examples: z.array(z.string()),
      }),
    )
    .optional(),
  /** Sources unchanged, or unread, for longer than they may be, when the run read them. */
  staleSources: z
    .array(z.object({ source: z.string(), reason: z.enum(['unchanged', 'unread']), days: z.number().int() }))
    .optional(),
});
export type RunRecord = z.infer<typeof runRecordSchema>;

/** What the lake knows of a source's feed (LAKE_DIR/sources.json): when it last changed and was last read. */
export const sourceFreshnessSchema = z.object({
  contentHash: z.string(),
  /** When a run first read the content it has now. */
  changedAt: z.iso.datetime(),
  /** When a run last read it successfully. */
  readAt: z.iso.datetime(),
  /** The last failed read, if it came after the last successful one. */
  failedAt: z.iso.datetime().optional(),
  failure: z.string().optional(),
  /** The source's own limit when it was last read (absent: the lake's default; null: never stale unchanged). */
  staleAfterDays: z.number().int().positive().nullable().optional(),
});
export type SourceFreshness = z.infer<typeof sourceFreshnessSchema>;
export const sourceFreshnessFileSchema = z.object({ sources: z.record(z.string(), sourceFreshnessSchema) });
