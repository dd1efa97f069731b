import { z } from 'zod';

/**
 * The value of every event-log message. It names the schema (and its version) of its payload so that a
 * consumer can validate it without knowing which producer wrote it.
 */
export const eventEnvelopeSchema = z.object({
  schema: z.string().min(1),
  version: z.number().int().positive(),
  /** Natural key of the record (also the message key, which picks the partition). */
  key: z.string().min(1),
  /** The source and the content version the record was read from. */
  source: z.string().min(1),
  sourceVersion: z.string().min(1),
  producedAt: z.iso.datetime(),
  payload: z.unknown(),
});

export type EventEnvelope = z.infer<typeof eventEnvelopeSchema>;

/** Published by ingest after all records of one source version are on the log. */
export const sourceVersionPayloadSchema = z.object({
  source: z.string(),
  kind: z.string(),
  location: z.string(),
  version: z.string(),
  contentHash: z.string(),
  fetchedAt: z.iso.datetime(),
  /** Records published per record schema; a consumer knows a version is complete when it has them all. */
  recordCounts: z.record(z.string(), z.number().int().nonnegative()),
  files: z.array(z.object({ path: z.string(), bytes: z.number().int(), sha256: z.string() })),
});

export type SourceVersionPayload = z.infer<typeof sourceVersionPayloadSchema>;

export const SOURCE_VERSION_SCHEMA = 'source-version';
