import { localLake } from '../../data-lake/lake.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openSnapshot, readCurrent } from '../../data-lake/snapshot-reader.ts';
import { ROOT, exitOf, runPipeline, stop } from '../support/processes.ts';
import {
  CONNECTIONS,
  DURATION_SECONDS,
  SLICES,
  incentivesLakeEnv,
  interleavedAll,
  loadNote,
  memoryOf,
  nationalSource,
  startBaseline,
  startServer,
  withServerCpu,
} from './server-processes.ts';
import { measureLoad, type LoadFigures, type LoadOptions } from './load.ts';

/*
 * npm run bench:ab -- <git ref> [lake dir]
 *
 * Whether a change made serving slower or bigger: this checkout's server and the server of an earlier
 * commit, each compiled as `npm start` runs it and in its default configuration, over the same lake,
 * loaded in alternating slices (A B A B …) so the machine's other load falls on both alike. Figures of
 * benches run on other days are not comparable on shared cores; these are. A lake dir with REM and
 * health tables (e.g. one built by `REM_STATES=all npm run pipeline`) adds their routes, and the health
 * answers once more computed for every request (a second pair of servers with RESPONSE_CACHE_MB=0, as the
 * health bench's p99 target is measured); without one, a lake of the national incentives is built. Each
 * family (calculator, REM address, health) is loaded cached and uncached, and every run is also set against
 * a bare Fastify route serving the same bytes to the same request, a POST's body included (the ceiling the
 * benches' ratios are taken against, target ≥ 0.5), in the same alternating slices. It prints its figures and writes nothing into the docs.
 */

const KEY = 'bench-ab-key-0123456789abcdef';
const CALCULATOR =
  '/api/v1/calculator?zip=02116&household_income=60000&household_size=3&tax_filing=single' +
  '&owner_status=homeowner&utility=ma-eversource';
const HEALTH = '/api/v2/etools/health-impacts';

interface Scenario {
  name: string;
  /** The family whose ratios to the bare route it reports, and whether its answers come from the cache. */
  family: 'calculator' | 'REM address' | 'health';
  cached: boolean;
  path: string;
  options: Omit<LoadOptions, 'connections' | 'durationSeconds'>;
  /** Answered with the response cache off (RESPONSE_CACHE_MB=0), by the second pair of servers. */
  computed?: boolean;
}

/** Throughput over the bare route's, per family and cache state: what the summary reports. */
type Ratios = Map<string, { a: number; b: number }>;

/** The servers' settings besides the default configuration: none, or the response cache off. */
const SETTINGS = { default: {}, computed: { RESPONSE_CACHE_MB: '0' } } as const;

/** The checkout of `ref` in a temporary directory, sharing this checkout's node_modules. */
async function checkout(ref: string): Promise<string> {
  const dir = path.join(await mkdtemp(path.join(tmpdir(), 'bench-ab-')), 'checkout');
  const { code, output } = await exitOf(
    spawn('git', ['worktree', 'add', '--detach', dir, ref], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  if (code !== 0) throw new Error(`git worktree add ${ref} failed:\n${output}`);
  await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

async function removeCheckout(dir: string): Promise<void> {
  await exitOf(spawn('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT, stdio: 'ignore' }));
  await rm(path.dirname(dir), { recursive: true, force: true });
}

/** What to load: the incentives always, REM and health when the lake has their tables. */
async function scenarios(lakeDir: string): Promise<Scenario[]> {
  const snapshot = await openSnapshot(localLake(lakeDir), (await readCurrent(localLake(lakeDir)))!);
  let income = 20_000;
  const newIncome = {
    nextPath: () => {
      income = (income + 7_919) % 250_000;
      return CALCULATOR.replace('household_income=60000', `household_income=${income}`);
    },
  };
  const list: Scenario[] = [
    { name: 'calculator MA, repeated', family: 'calculator', cached: true, path: CALCULATOR, options: {} },
    {
      name: 'calculator MA, a new income every request (kept per income class)',
      family: 'calculator',
      cached: true,
      path: CALCULATOR,
      options: newIncome,
    },
    {
      name: 'calculator MA, a new income every request, computed every request (RESPONSE_CACHE_MB=0)',
      family: 'calculator',
      cached: false,
      path: CALCULATOR,
      options: newIncome,
      computed: true,
    },
  ];
  if ((snapshot.manifest.tables.rem_cluster_statistics?.rows ?? 0) > 0) {
    const zips = (await snapshot.rows<{ zip: string; state: string }>('rem_zip_counties')).filter(
      ({ state }) => state !== 'AK' && state !== 'HI',
    );
    const address = (zip: string, state: string) =>
      `/api/v1/rem/address?address=${encodeURIComponent(`1 Main St, Town, ${state} ${zip}`)}` +
      '&upgrade=hvac__heat_pump_seer18_hspf10&heating_fuel=natural_gas';
    let i = 0;
    const newAddress = {
      nextPath: () => {
        const { zip, state } = zips[i++ % zips.length]!;
        return address(zip, state);
      },
    };
    list.push(
      {
        name: 'REM address, repeated',
        family: 'REM address',
        cached: true,
        path: address(zips[0]!.zip, zips[0]!.state),
        options: {},
      },
      {
        name: 'REM address, a new address every request (kept per county cluster)',
        family: 'REM address',
        cached: true,
        path: address(zips[0]!.zip, zips[0]!.state),
        options: newAddress,
      },
      {
        name: 'REM address, a new address every request, computed every request (RESPONSE_CACHE_MB=0)',
        family: 'REM address',
        cached: false,
        path: address(zips[0]!.zip, zips[0]!.state),
        options: newAddress,
        computed: true,
      },
    );
  }
  if ((snapshot.manifest.tables.health_county_impacts?.rows ?? 0) > 0) {
    const body = (scope: object) =>
      JSON.stringify({
        metrics: ['avoided_premature_mortality_incidence'],
        upgrade: ['hvac__heat_pump_seer18_hspf10'],
        ...scope,
      });
    const post = { method: 'POST' as const, headers: { 'content-type': 'application/json' } };
    const health = [
      { name: 'health all states', options: { ...post, body: body({}) } },
      {
        name: 'health Texas counties',
        options: { ...post, body: body({ state_fips: ['48'], county_fips: ['*'] }) },
      },
    ];
    const family = 'health' as const;
    list.push(
      ...health.map(({ name, options }) => ({
        name: `${name}, repeated`,
        family,
        cached: true,
        path: HEALTH,
        options,
      })),
      ...health.map(({ name, options }) => ({
        name: `${name}, computed every request (RESPONSE_CACHE_MB=0)`,
        family,
        cached: false,
        path: HEALTH,
        options,
        computed: true,
      })),
    );
  }
  return list;
}

/** A bare Fastify server answering /static/<i> with the body server A answers scenario i with. */
async function bareRoutes(
  base: string,
  runs: readonly Scenario[],
  headers: Record<string, string>,
  dir: string,
) {
  const bodies: string[] = [];
  for (const { path: route, options } of runs) {
    const response = await fetch(`${base}${options.nextPath?.() ?? route}`, {
      method: options.method ?? 'GET',
      headers: { ...headers, ...options.headers },
      body: options.body,
    });
    bodies.push(await response.text());
  }
  const file = path.join(dir, `bench-ab-bodies-${Date.now()}.json`);
  await writeFile(file, JSON.stringify(bodies));
  return startBaseline(file);
}

/** Loads every scenario of one setting against A, B and the bare route, in alternating slices. */
async function loadSetting(
  runs: readonly Scenario[],
  servers: { a: ServerUnderTest; b: ServerUnderTest; bare: string },
  headers: Record<string, string>,
  ratios: Ratios,
): Promise<void> {
  for (const [i, { name, family, cached, path: route, options }] of runs.entries()) {
    const load =
      (base: string, extra: Pick<LoadOptions, 'headers'> = {}) =>
      (seconds: number) =>
        measureLoad(`${base}${route}`, {
          ...options,
          headers: { ...headers, ...options.headers, ...extra.headers },
          connections: CONNECTIONS,
          durationSeconds: seconds,
        });
    // The same request to the bare route: a POST's body is sent and parsed there too.
    const bare = (seconds: number) =>
      measureLoad(`${servers.bare}/static/${i}`, {
        method: options.method,
        headers: options.headers,
        body: options.body,
        connections: CONNECTIONS,
        durationSeconds: seconds,
      });
    // Both warmed alike (JIT, pages of the lake faulted in, kept answers) before the measured slices.
    await load(servers.a.base)(2);
    await load(servers.b.base)(2);
    await bare(1);
    const [cpuA, cpuB] = [
      withServerCpu(servers.a.child.pid!, load(servers.a.base)),
      withServerCpu(servers.b.child.pid!, load(servers.b.base)),
    ];
    const figures = await interleavedAll({ a: cpuA.run, b: cpuB.run, bare });
    const side = (f: LoadFigures, cpu: typeof cpuA) =>
      `${Math.round(f.requestsPerSecond)} req/s, p99 ${f.p99Ms} ms, ${Math.round(cpu.microsecondsPerRequest())} µs CPU`;
    const ratio = {
      a: figures.a.requestsPerSecond / figures.bare.requestsPerSecond,
      b: figures.b.requestsPerSecond / figures.bare.requestsPerSecond,
    };
    const key = `${family}, ${cached ? 'cached' : 'uncached'}`;
    // A family's cached figure is its repeated request's (the first of its cached scenarios).
    if (!ratios.has(key)) ratios.set(key, ratio);
    console.log(
      `${name}: A ${side(figures.a, cpuA)}; B ${side(figures.b, cpuB)}; A/B ${(figures.a.requestsPerSecond / figures.b.requestsPerSecond).toFixed(3)}; ` +
        `bare ${Math.round(figures.bare.requestsPerSecond)} req/s, A/bare ${ratio.a.toFixed(3)}, B/bare ${ratio.b.toFixed(3)}; ` +
        `failed ${figures.a.failed + figures.b.failed}; ${loadNote()}`,
    );
  }
}

interface ServerUnderTest {
  child: ChildProcess;
  base: string;
}

const ref = process.argv[2];
if (ref === undefined) {
  console.error('usage: npm run bench:ab -- <git ref> [lake dir]');
  process.exit(2);
}
let lakeDir = process.argv[3];
const builtLake = lakeDir === undefined;
const servers: ChildProcess[] = [];
let other: string | undefined;
try {
  if (lakeDir === undefined) {
    lakeDir = await mkdtemp(path.join(tmpdir(), 'bench-ab-lake-'));
    await runPipeline(incentivesLakeEnv(lakeDir, nationalSource().location));
  }
  other = await checkout(ref);
  const list = await scenarios(lakeDir);
  const headers = { authorization: `Bearer ${KEY}` };
  const ratios: Ratios = new Map();
  console.log(
    `A: this checkout; B: ${ref}; lake ${lakeDir}; autocannon -c ${CONNECTIONS}, ${DURATION_SECONDS} s each in ${SLICES} alternating slices, ` +
      'beside a bare Fastify route serving the same bytes',
  );
  for (const [setting, extra] of Object.entries(SETTINGS)) {
    const runs = list.filter(({ computed }) => (computed === true) === (setting === 'computed'));
    if (runs.length === 0) continue;
    const env = { LAKE_DIR: lakeDir, API_KEYS: KEY, SERVE_ROLE: 'replica', ...extra };
    const ready = (health: unknown) => (health as { snapshot?: unknown }).snapshot != null;
    const a = await startServer(env, ready);
    servers.push(a.child);
    const b = await startServer(env, ready, other);
    servers.push(b.child);
    const bare = await bareRoutes(a.base, runs, headers, lakeDir);
    servers.push(bare.child);
    await loadSetting(runs, { a, b, bare: bare.url }, headers, ratios);
    const [memA, memB] = [await memoryOf(a.child.pid!), await memoryOf(b.child.pid!)];
    console.log(
      `RSS (${setting}): A ${Math.round(memA.rssMb)} MB (peak ${Math.round(memA.peakMb)}); ` +
        `B ${Math.round(memB.rssMb)} MB (peak ${Math.round(memB.peakMb)})`,
    );
    for (const server of servers.splice(0)) await stop(server);
  }
  console.log('\nthroughput / bare route (target ≥ 0.5 each):');
  for (const [key, { a, b }] of ratios) {
    console.log(`  ${key}: A ${a.toFixed(3)}${a >= 0.5 ? '' : ' (missed)'}; B ${b.toFixed(3)}`);
  }
} finally {
  for (const server of servers) await stop(server);
  if (other !== undefined) await removeCheckout(other);
  if (builtLake && lakeDir !== undefined) await rm(lakeDir, { recursive: true, force: true });
}
