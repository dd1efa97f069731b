import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Bench } from './bench.ts';
import { ROOT } from '../support/processes.ts';

/*
 * `npm run bench -- first-answer`: `npm start` (build included) on an empty lake, timed from the spawn to
 * the calculator's first 200 with the key the start prints, then to /healthz saying every family is ready.
 * Run it in a fresh clone after `npm ci` for the figure (the build is then a cold one).
 */

const HEAT_PUMP = 'hvac__heat_pump_seer18_hspf10';
const remAddress = (address: string) =>
  `/api/v1/rem/address?address=${encodeURIComponent(address)}&upgrade=${HEAT_PUMP}&heating_fuel=natural_gas`;
const CALCULATOR =
  '/api/v1/calculator?zip=02116&owner_status=homeowner&household_income=60000&household_size=3&tax_filing=single';
/** Long enough for the national precompute on a busy machine; the figures say how long it took. */
const GIVE_UP_MS = 30 * 60_000;

export const bench: Bench = {
  title: 'First answer after npm start on an empty lake',
  async run() {
    const lakeDir = await mkdtemp(path.join(tmpdir(), 'first-answer-'));
    const startedAt = performance.now();
    // Its own process group, so stopping it stops npm's child too (by the group's id, which is ours).
    const child = spawn('npm', ['start'], {
      cwd: ROOT,
      detached: true,
      env: { ...process.env, LAKE_DIR: lakeDir, PORT: '0', LOG_FORMAT: 'json', API_KEYS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const seconds = () => (performance.now() - startedAt) / 1000;
    try {
      const until = async <T>(what: string, attempt: () => Promise<T | undefined>): Promise<T> => {
        while (performance.now() - startedAt < GIVE_UP_MS) {
          if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${output}`);
          const found = await attempt().catch(() => undefined);
          if (found !== undefined) return found;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        throw new Error(`no ${what} within ${GIVE_UP_MS / 1000} s:\n${output.slice(-4000)}`);
      };
      const url = await until('listening line', async () => /serving on (http:\/\/\S+?)"/.exec(output)?.[1]);
      const key = await until('API key', async () => /API key: (esk_\S+)/.exec(output)?.[1]);
      const headers = { authorization: `Bearer ${key}` };
      const answered = (path: string, init: RequestInit = {}) =>
        until(`an answer from ${path}`, async () => {
          const response = await fetch(url + path, { ...init, headers: { ...headers, ...init.headers } });
          return response.status === 200 ? seconds() : undefined;
        });
      const calculator = await answered(CALCULATOR);
      const remSample = await answered(remAddress('1 Main St, Providence, RI 02903'));
      const remElsewhere = await answered(remAddress('901 Bagby St, Houston, TX 77002'));
      const health = await answered('/api/v2/etools/health-impacts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ metrics: ['ammonia'], upgrade: [HEAT_PUMP], state_fips: ['44'] }),
      });
      const allReady = await until('the whole precompute', async () => {
        const health = (await (await fetch(`${url}/healthz`)).json()) as { precompute: unknown };
        return health.precompute === null ? seconds() : undefined;
      });
      const family = (name: string, value: number, note: string) => ({
        name: `seconds from npm start to the first ${name} answer`,
        value,
        unit: 's',
        target: { op: '<=' as const, value: 30 },
        note,
      });
      return [
        family('calculator', calculator, 'Boston, 02116'),
        family('REM', remSample, 'Providence, RI: a sample state'),
        family('REM outside the sample', remElsewhere, 'Houston, TX: computed on demand'),
        family('health-impacts', health, 'Rhode Island'),
        {
          name: 'seconds from npm start to the whole precompute served',
          value: allReady,
          unit: 's',
          note: `REM_STATES and HEALTH_STATES at their defaults`,
        },
      ];
    } finally {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      await new Promise((resolve) => (child.exitCode === null ? child.on('exit', resolve) : resolve(null)));
      await rm(lakeDir, { recursive: true, force: true });
    }
  },
};
