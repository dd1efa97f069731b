import path from 'node:path';
import { createFileReader } from '../../ingest/connectors/file-reader.ts';
import { rewiringAmericaOpenDataParser } from '../../ingest/parsers/rewiring-america-open-data.ts';
import { loadCases, type ConformanceCase } from './cases.ts';
import { checkCase } from './check-case.ts';
import { IN_PROCESS_KEY, inProcessApp } from './in-process-app.ts';

const AS_OF_DATE = '2025-01-25';

type Send = (url: string) => Promise<{ status: number; body: string }>;

async function inProcess(source: string): Promise<{ send: Send; close: () => Promise<void> }> {
  const records = await rewiringAmericaOpenDataParser.parse(createFileReader(source));
  const app = await inProcessApp(records, { asOfDate: AS_OF_DATE });
  return {
    send: async (url) => {
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
  const cases: ConformanceCase[] = await loadCases(path.join(source, 'conformance'));
  const target = await inProcess(source);
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
  return failed === 0 ? 0 : 1;
}

process.exitCode = await run();
