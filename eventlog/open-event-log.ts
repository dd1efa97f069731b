import path from 'node:path';
import type { Logger } from '../lib/log.ts';
import type { Config } from '../schemas/config.ts';
import { EmbeddedEventLog } from './embedded-log.ts';
import type { EventLog } from './event-log.ts';
import { KafkaEventLog } from './kafka-log.ts';

/** The configured event log: Kafka when KAFKA_BROKERS is set, else the embedded log in `<LAKE_DIR>/log`. */
export async function openEventLog(config: Config, logger: Logger): Promise<EventLog> {
  if (config.KAFKA_BROKERS)
    return openKafkaEventLog({ ...config, KAFKA_BROKERS: config.KAFKA_BROKERS }, logger);
  const directory = path.join(config.LAKE_DIR, 'log');
  logger.info({ directory }, 'event log: embedded');
  return EmbeddedEventLog.open({ directory, logger });
}

/** The Kafka event log of the configured brokers, for a caller that needs Kafka itself (its consumer lag). */
export function openKafkaEventLog(
  config: Config & { KAFKA_BROKERS: string[] },
  logger: Logger,
): Promise<KafkaEventLog> {
  logger.info({ brokers: config.KAFKA_BROKERS, topicPrefix: config.KAFKA_TOPIC_PREFIX }, 'event log: Kafka');
  return KafkaEventLog.open({
    brokers: config.KAFKA_BROKERS,
    clientId: config.KAFKA_CLIENT_ID,
    topicPrefix: config.KAFKA_TOPIC_PREFIX,
    logger,
  });
}
