import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Bench } from './bench.ts';
import { ROOT } from './server-processes.ts';

/*
 * `npm run bench -- first-answer`: `npm start` (build included) on an empty lake, timed from the spawn to
 * the calculator's first 200 with the key the start prints, then to /healthz saying every family is ready.
 * Run it in a fresh clone after `npm ci` for the figure (the build is then a cold one).
 */

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
      const firstAnswer = await until('calculator answer', async () =>
        (await fetch(url + CALCULATOR, { headers })).status === 200 ? seconds() : undefined,
      );
      const remWhilePrecomputing = await fetch(
        `${url}/api/v1/rem/address?address=${encodeURIComponent('1 Main St, Providence, RI 02903')}` +
          '&upgrade=hvac__heat_pump_seer18_hspf10&heating_fuel=natural_gas',
        { headers },
      );
      const allReady = await until('every family ready', async () => {
        const health = (await (await fetch(`${url}/healthz`)).json()) as {
          families: Record<string, boolean>;
        };
        return Object.values(health.families).every(Boolean) ? seconds() : undefined;
      });
      return [
        {
          name: 'seconds from npm start to the first calculator answer',
          value: firstAnswer,
          unit: 's',
          target: { op: '<=', value: 30 },
          note: `REM address route meanwhile: ${remWhilePrecomputing.status} (Retry-After ${remWhilePrecomputing.headers.get('retry-after')})`,
        },
        { name: 'seconds from npm start to REM and health ready', value: allReady, unit: 's' },
      ];
    } finally {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      await new Promise((resolve) => (child.exitCode === null ? child.on('exit', resolve) : resolve(null)));
      await rm(lakeDir, { recursive: true, force: true });
    }
  },
};
