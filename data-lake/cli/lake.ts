import { userInfo } from 'node:os';
import { loadConfig } from '../../lib/config.ts';
import { openKafkaEventLog } from '../../eventlog/open-event-log.ts';
import { createLogger } from '../../lib/log.ts';
import { createProgress } from '../../lib/progress.ts';
import type { Config } from '../../schemas/config.ts';
import { announcePublished, type PublishedSnapshot } from '../published-snapshots.ts';
import { runMain } from '../../lib/cli-main.ts';
import { openLake } from '../lake.ts';
import { LAKE_USER_ERRORS } from '../user-errors.ts';
import { lakeCommand } from './lake-command.ts';

/** Says on Kafka that CURRENT moved; a command's publish stands even when the log cannot be reached. */
async function announceOnKafka(config: Config, event: PublishedSnapshot): Promise<void> {
  const logger = createLogger(config.LOG_LEVEL, 'lake');
  try {
    const log = await openKafkaEventLog({ ...config, KAFKA_BROKERS: config.KAFKA_BROKERS! }, logger);
    try {
      await announcePublished(log, event);
    } finally {
      await log.close();
    }
  } catch (err) {
    logger.warn(
      { err },
      `${event.by} of ${event.id} not announced on the event log: replicas see it at their next poll`,
    );
  }
}

/** Who runs the command, as a held snapshot's review records it: LAKE_OPERATOR, else the login name. */
const operator = (): string =>
  process.env.LAKE_OPERATOR?.trim() || process.env.USER || process.env.LOGNAME || userInfo().username;

// npm run lake -- list | show [<id>] | diff [<id>] [<against>] | publish <id> --reason "…" | runs | rollback <id> | gc --keep <n>
runMain(
  () => {
    const config = loadConfig();
    return lakeCommand(
      process.argv.slice(2),
      {
        lake: openLake(config),
        sourceStaleAfterDays: config.SOURCE_STALE_AFTER_DAYS,
        operator,
        now: () => new Date(),
        // On a terminal a long command draws its steps on stderr; elsewhere stdout stays the answer alone.
        ...(process.stderr.isTTY
          ? { progress: createProgress({ logger: createLogger(config.LOG_LEVEL, 'lake') }) }
          : {}),
        ...(config.KAFKA_BROKERS === undefined
          ? {}
          : { announce: (event) => announceOnKafka(config, event) }),
      },
      { print: (text) => console.log(text) },
    );
  },
  { expected: LAKE_USER_ERRORS },
);
