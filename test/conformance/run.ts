import { localLake } from '../../data-lake/lake.ts';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFileReader } from '../../ingest/connectors/file-reader.ts';
import { rewiringAmericaOpenDataParser } from '../../ingest/parsers/rewiring-america-open-data.ts';
import { loadConfig } from '../../lib/config.ts';
import { createLogger } from '../../lib/log.ts';
import { createIncentivesApi } from '../../serve/incentives/incentives-api.ts';
import { startService } from '../../serve/service.ts';
import { lakeSnapshotSource } from '../../serve/snapshot/lake-snapshot-source.ts';
import { defaultDefinitions } from '../../pipeline/definitions.ts';
import { runPipeline } from '../../pipeline/run-pipeline.ts';
import { writeFigures } from '../figures/figure-files.ts';
import { CASE_KINDS } from '../figures/case-kinds.ts';
import { loadCases, type ConformanceCase } from './cases.ts';
import { checkCase } from './check-case.ts';
import { IN_PROCESS_KEY, inProcessApp } from './in-process-app.ts';

/*
 * npm run test:conformance [-- <source dir>] [--in-process]
 *
 * Runs the pipeline on the source (default ../shared/ra-data, or INCENTIVES_SOURCE) into a temporary lake
 * with the reference's clock (2025-01-25), starts the real server on 127.0.0.1 on a free port with a key,
 * sends every case of <source>/conformance/cases.json over HTTP and compares as its README says.
 * Without the data it prints one line naming what is missing and exits 2.
 * --in-process skips the lake and the socket (tables built in memory, requests injected): for iterating.
 */

const AS_OF_DATE = '2025-01-25';
/** Exit code when the data to run against is missing (1 means a case failed). */
const EXIT_NO_DATA = 2;
const KEY = `conformance-${Date.now()}-key`;

interface Target {
  send(url: string): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

async function overHttp(source: string): Promise<Target> {
  const lakeDir = await mkdtemp(path.join(tmpdir(), 'conformance-lake-'));
  const env = { ...process.env, INCENTIVES_SOURCE: source };
  const config = loadConfig({
    ...env,
    LAKE_DIR: lakeDir,
    AS_OF_DATE,
    HOST: '127.0.0.1',
    PORT: '0',
    API_KEYS: KEY,
    RATE_LIMIT_PER_MINUTE: '1000000',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    KAFKA_BROKERS: '',
    // The incentives cases need no REM precompute.
    REM_STATES: 'none',
    HEALTH_STATES: 'none',
  });
  const logger = createLogger(config.LOG_LEVEL, 'conformance');
  const started = performance.now();
  const result = await runPipeline({ config, logger, definitions: await defaultDefinitions(config, env) });
  console.log(
    `pipeline: ${result.status} ${result.snapshotId} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const service = await startService({
    config,
    logger,
    routeGroups: [createIncentivesApi() as never],
    source: lakeSnapshotSource(localLake(lakeDir)),
    publishFirstSnapshot: async () => {},
    print: () => {},
  });
  console.log(`server: ${service.url}`);
  return {
    async send(url) {
      const response = await fetch(`${service.url}${url}`, { headers: { authorization: `Bearer ${KEY}` } });
      return { status: response.status, body: await response.text() };
    },
    async close() {
      await service.stop();
      await rm(lakeDir, { recursive: true, force: true });
    },
  };
}

async function inProcess(source: string): Promise<Target> {
  const records = await rewiringAmericaOpenDataParser.parse(createFileReader(source));
  const app = await inProcessApp(records, { asOfDate: AS_OF_DATE });
  return {
    async send(url) {
      const response = await app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${IN_PROCESS_KEY}` },
      });
      return { status: response.statusCode, body: response.body };
    },
    close: () => app.close(),
  };
}

async function run(): Promise<number> {
  const args = process.argv.slice(2);
  const source = path.resolve(
    args.find((a) => !a.startsWith('--')) ?? process.env.INCENTIVES_SOURCE ?? '../shared/ra-data',
  );
  const casesFile = path.join(source, 'conformance', 'cases.json');
  if (!existsSync(casesFile)) {
    // Not a failure of the service: the national data is simply not here. One line, no stack trace.
    console.error(
      `conformance: ${casesFile} not found; point it at a copy of the national data: ` +
        `npm run test:conformance -- <dir> (or INCENTIVES_SOURCE=<dir>)`,
    );
    return EXIT_NO_DATA;
  }
  const cases: ConformanceCase[] = await loadCases(path.dirname(casesFile));
  const target = args.includes('--in-process') ? await inProcess(source) : await overHttp(source);
  let failed = 0;
  try {
    for (const testCase of cases) {
      const response = await target.send(testCase.url);
      const problem = checkCase(testCase, response.status, response.body);
      if (problem) failed++;
      console.log(`${problem ? 'FAIL' : 'pass'}  ${testCase.name}${problem ? `\n      ${problem}` : ''}`);
    }
  } finally {
    await target.close();
  }
  console.log(`${cases.length - failed} passed, ${failed} failed`);
  const byKind = Object.fromEntries(
    CASE_KINDS.map((kind) => [kind, cases.filter((c) => c.kind === kind).length]),
  );
  const changed = await writeFigures('conformance', {
    cases: cases.length,
    passed: cases.length - failed,
    byKind,
  });
  if (changed.length > 0) console.log(`conformance figures changed in ${changed.join(', ')}`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = await run();
