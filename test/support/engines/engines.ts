import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../processes.ts';

/*
 * The real servers some specs run, installed by deploy/engines/install.sh into ENGINES_DIR (default
 * .cache/engines at the repository's root): Apache Kafka's classpath and SeaweedFS's `weed` binary. Their
 * versions are pinned in deploy/engines/ (kafka-pom.xml, seaweedfs/go.mod) and read from there, so the specs
 * look where the script installed.
 */

export const INSTALL_COMMAND = 'bash deploy/engines/install.sh';

export const ENGINES_DIR = process.env.ENGINES_DIR ?? path.join(ROOT, '.cache/engines');

function pinned(file: string, pattern: RegExp): string {
  const match = pattern.exec(readFileSync(path.join(ROOT, file), 'utf8'));
  if (!match) throw new Error(`${file} pins no version (${pattern})`);
  return match[1]!;
}

export const KAFKA_VERSION = pinned(
  'deploy/engines/kafka-pom.xml',
  /<kafka\.version>([^<]+)<\/kafka\.version>/,
);
export const SEAWEEDFS_VERSION = pinned(
  'deploy/engines/seaweedfs/go.mod',
  /github\.com\/seaweedfs\/seaweedfs (v\S+)/,
);

/** The broker's jars (`java -cp '<dir>/*'`). */
export const KAFKA_LIB = path.join(ENGINES_DIR, `kafka-${KAFKA_VERSION}`, 'lib');
/** SeaweedFS's one binary. */
export const WEED = path.join(ENGINES_DIR, `seaweedfs-${SEAWEEDFS_VERSION}`, 'weed');

/**
 * Why the specs that need an engine cannot run here, or undefined when they can. `installed` is the file the
 * install script writes last. .ci/run runs the script and sets `requiredVariable`, so in CI a missing engine
 * fails those specs; elsewhere they say why they were not run.
 */
function engineUnavailable(
  engine: string,
  installed: string,
  requiredVariable: string,
  specs: string,
): string | undefined {
  if (existsSync(installed)) return undefined;
  const reason = `${engine} is not installed in ${ENGINES_DIR} (run ${INSTALL_COMMAND})`;
  if (process.env[requiredVariable]) throw new Error(`${requiredVariable} is set, but ${reason}`);
  console.log(`${specs} not run: ${reason}`);
  return reason;
}

/** Checks for the real Kafka cluster's specs (KAFKA_REQUIRED in CI). */
export const kafkaUnavailable = (specs: string) =>
  engineUnavailable(
    `Apache Kafka ${KAFKA_VERSION}`,
    path.join(KAFKA_LIB, '..', 'installed'),
    'KAFKA_REQUIRED',
    specs,
  );

/** Checks for the SeaweedFS specs (SEAWEEDFS_REQUIRED in CI). */
export const seaweedfsUnavailable = (specs: string) =>
  engineUnavailable(`SeaweedFS ${SEAWEEDFS_VERSION}`, WEED, 'SEAWEEDFS_REQUIRED', specs);
