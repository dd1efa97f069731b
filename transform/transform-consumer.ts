import type { EventLog, ConsumedRecord } from '../eventlog/event-log.ts';
import { SOURCE_VERSIONS_TOPIC } from '../ingest/ingest-job.ts';
import type { RecordSchema } from '../schemas/record-schema.ts';
import type { Logger } from '../lib/log.ts';
import type { Progress } from '../lib/progress.ts';
import { eventEnvelopeSchema, sourceVersionPayloadSchema } from '../schemas/envelope.ts';
import type { StagingEntry, StagingStore } from '../data-lake/staging-store.ts';
import { describeIssues, judgeRecord } from './judge-record.ts';

/** The consumer group whose committed offsets say what staging already holds. */
export const TRANSFORM_GROUP = 'transform';

export interface ConsumeOptions {
  log: EventLog;
  staging: StagingStore;
  recordSchemas: readonly RecordSchema[];
  logger: Pick<Logger, 'info' | 'warn'>;
  progress: Progress;
  groupId?: string;
  /** Called after each batch is durable in staging and before its offsets are committed. */
  afterBatchStaged?: () => Promise<void> | void;
}

export interface ConsumeSummary {
  delivered: number;
  accepted: number;
  quarantined: number;
  sourceVersions: number;
  /** Messages that are not valid envelopes, so they cannot even be attributed to a source. */
  unreadable: number;
}

/** The topics the transform consumer drains: every record schema's, and the source-version events. */
export function transformTopics(recordSchemas: readonly RecordSchema[]): string[] {
  return [...new Set([...recordSchemas.map((schema) => schema.topic), SOURCE_VERSIONS_TOPIC])];
}

/**
 * Drains the record topics into staging: each record validated with its record schema (accepted or
 * quarantined with the reason), each source-version event recorded. A batch is written durably before
 * the log commits its offsets, and staging dedupes, so a batch delivered twice changes nothing.
 */
export async function consumeToStaging(options: ConsumeOptions): Promise<ConsumeSummary> {
  const { log, staging, logger } = options;
  const schemas = new Map(options.recordSchemas.map((schema) => [schema.name, schema]));
  const topics = transformTopics(options.recordSchemas);
  for (const topic of topics) await log.ensureTopic(topic);

  const summary: ConsumeSummary = {
    delivered: 0,
    accepted: 0,
    quarantined: 0,
    sourceVersions: 0,
    unreadable: 0,
  };
  const task = options.progress.start('stage records', { unit: 'records' });
  const readable = (record: ConsumedRecord) => {
    const envelope = eventEnvelopeSchema.safeParse(record.value);
    if (envelope.success) return envelope.data;
    summary.unreadable++;
    logger.warn(
      { topic: record.topic, partition: record.partition, offset: record.offset },
      `skipping a message that is not an event envelope: ${describeIssues(envelope.error)}`,
    );
    return null;
  };

  await log.drain({
    groupId: options.groupId ?? TRANSFORM_GROUP,
    topics,
    onBatch: async (records) => {
      const topic = records[0]!.topic;
      if (topic === SOURCE_VERSIONS_TOPIC) {
        for (const record of records) {
          const envelope = readable(record);
          if (envelope === null) continue;
          const event = sourceVersionPayloadSchema.safeParse(envelope.payload);
          if (!event.success) {
            summary.unreadable++;
            logger.warn(
              { partition: record.partition, offset: record.offset },
              `skipping an invalid source-version event: ${describeIssues(event.error)}`,
            );
            continue;
          }
          await staging.writeSourceVersion(event.data, record.offset);
          summary.sourceVersions++;
        }
      } else {
        const entries: StagingEntry[] = [];
        for (const record of records) {
          const envelope = readable(record);
          if (envelope === null) continue;
          const verdict = judgeRecord(envelope, schemas);
          entries.push({
            source: envelope.source,
            sourceVersion: envelope.sourceVersion,
            schema: envelope.schema,
            key: envelope.key,
            partition: record.partition,
            offset: record.offset,
            ...verdict,
          });
          summary[verdict.status]++;
        }
        await staging.writeBatch(topic, entries);
      }
      summary.delivered += records.length;
      task.tick(records.length);
      await options.afterBatchStaged?.();
    },
  });
  task.done();
  return summary;
}
