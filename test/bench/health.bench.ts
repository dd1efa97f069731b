import { localLake } from '../../data-lake/lake.ts';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { HEALTH_METRIC_NAMES, healthImpactsRequestSchema } from '../../schemas/health-api.ts';
import {
  HEALTH_UPGRADES,
  SQFT_BINS,
  VALUE_OF_STATISTICAL_LIFE,
  healthImpactCellSchema,
} from '../../schemas/health-data.ts';
import { CONTIGUOUS_STATE_FIPS, DEFAULT_GRID_EMISSIONS, GRID_EMISSIONS } from '../../schemas/rem-data.ts';
import { FUELS } from '../../schemas/rem.ts';
import { healthAnswerJson } from '../../serve/health/health-answer.ts';
import { HEALTH_COUNTY_IMPACTS } from '../../data-lake/tables/health.ts';
import { loadHealthSnapshot } from '../../serve/health/health-data.ts';
import { requireWildcardAlone, resolveAreas } from '../../serve/health/health-request.ts';
import { healthMessages } from '../../serve/health/messages.ts';
import { openSnapshot } from '../../data-lake/snapshot-reader.ts';
import { quoteLiteral } from '../../data-lake/sql-quote.ts';
import type { BenchResult } from '../figures/bench-result.ts';
import type { Bench } from './bench.ts';
import { publishBenchSnapshot } from './bench-snapshot.ts';
import { ROOT, runPipeline, stop } from '../support/processes.ts';
import {
  CONNECTIONS,
  failedRequests,
  interleaved,
  loadNote,
  memoryOf,
  memoryResults,
  startBaseline,
  startServer,
  withServerCpu,
} from './server-processes.ts';
import { measureLoad } from './load.ts';

/*
 * The health-impacts route at national size, served by the real server. The pipeline builds a snapshot
 * (the sample incentives, and the REM county table from the default sources); while it has no
 * health_county_impacts, a copy of it gets a SYNTHETIC one of national size over the real counties
 * (every contiguous county × 7 upgrades × 4 heating fuels × 5 bin × housing-type pairs: single-family homes
 * in each of the 4 bins, multi-family ones in the smallest, as the rollup places them; numbers from a hash,
 * quantized as the contract says). The figures say which they were measured on.
 */

const KEY = 'bench-health-key-0123456789abcdef';
export const SNAPSHOT = 'health-bench';
const URL_PATH = '/api/v2/etools/health-impacts';
const HP = 'hvac__heat_pump_seer18_hspf10';

const sqlValues = (values: readonly string[]) => values.map((v) => `(${quoteLiteral(v)})`).join(', ');

/** A hashed number per cell and column, quantized to `2^-bits` (as the rollup quantizes kg, deaths and dollars). */
const hashed = (column: number, scale: number, bits: number) =>
  `round(((hash(county_fips, upgrade, heating_fuel, sqft_bin, housing_type, ${column}) % 2000000) / 1000000.0 - 0.4) * ${scale} * ${2 ** bits}) / ${2 ** bits}`;

/** The SQL of each cell column: keys from the joined lists, numbers hashed, fuel changes zero. */
function syntheticColumn(column: string, i: number): string {
  if (
    [
      'county_fips',
      'state',
      'upgrade',
      'heating_fuel',
      'sqft_bin',
      'housing_type',
      'grid_emissions',
    ].includes(column)
  )
    return column;
  if (column === 'county_name') return 'name AS county_name';
  if (column === 'households')
    return `(hash(county_fips, heating_fuel, sqft_bin, housing_type) % 6000)::BIGINT AS households`;
  if (column === 'sample_homes') return '100 AS sample_homes';
  if (column === 'upgraded_homes') return '90 AS upgraded_homes';
  if (column.endsWith('_kg_avoided')) return `${hashed(i, 20_000, 20)} AS ${column}`;
  if (column.startsWith('deaths_avoided')) return `${hashed(i, 0.5, 30)} AS ${column}`;
  if (column.startsWith('mortality_value_usd'))
    return `${hashed(i, 0.5 * VALUE_OF_STATISTICAL_LIFE.usd, 8)} AS ${column}`;
  if (column.endsWith('_version')) return `'synthetic' AS ${column}`;
  return `0.0 AS ${column}`;
}

/** The rollup's (bin, housing type) pairs: single-family homes in every bin, multi-family ones in the smallest. */
const GROUPS = [
  ...SQFT_BINS.map((bin) => `(${quoteLiteral(bin)}, 'single_family')`),
  `(${quoteLiteral(SQFT_BINS[0])}, 'multi_family')`,
].join(', ');

async function createSyntheticCells(db: DuckDBConnection): Promise<void> {
  const columns = Object.keys(healthImpactCellSchema.shape).map(syntheticColumn);
  await db.run(`CREATE TABLE ${HEALTH_COUNTY_IMPACTS.name} AS
    SELECT ${columns.join(', ')}
    FROM (SELECT county_fips, state, name FROM rem_counties
          WHERE state IN (${Object.keys(CONTIGUOUS_STATE_FIPS).map(quoteLiteral).join(', ')})),
      (VALUES ${sqlValues(HEALTH_UPGRADES)}) u(upgrade), (VALUES ${sqlValues(FUELS)}) f(heating_fuel),
      (VALUES ${GROUPS}) g(sqft_bin, housing_type), (VALUES ${sqlValues(GRID_EMISSIONS)}) b(grid_emissions)`);
}

/** Copies the published snapshot into a new one with a health table (synthetic unless it has one), and publishes it. */
export async function publishWithHealth(lakeDir: string): Promise<{ synthetic: boolean; cells: number }> {
  return publishBenchSnapshot(
    lakeDir,
    {
      snapshotId: SNAPSHOT,
      fingerprintSuffix: 'health-bench',
      tables: [HEALTH_COUNTY_IMPACTS.name],
      lacks: (manifest) => (manifest.tables[HEALTH_COUNTY_IMPACTS.name]?.rows ?? 0) === 0,
      create: createSyntheticCells,
    },
    async (db) => ({
      cells: Number(
        (await db.runAndReadAll(`SELECT count(*) FROM ${HEALTH_COUNTY_IMPACTS.name}`)).getColumns()[0]![0],
      ),
    }),
  );
}

/** Bodies of one metric (as the reference's example), cycling through every metric, upgrade and language. */
const cyclingBodies = (scope: Record<string, unknown>) => {
  let i = 0;
  return () => {
    const n = i++;
    const metric = HEALTH_METRIC_NAMES[n % HEALTH_METRIC_NAMES.length]!;
    const upgrade = HEALTH_UPGRADES[Math.floor(n / HEALTH_METRIC_NAMES.length) % HEALTH_UPGRADES.length]!;
    const language = n % 2 === 0 ? 'en' : 'es';
    return JSON.stringify({ metrics: [metric], upgrade: [upgrade], ...scope, language });
  };
};

const SCOPES = [
  { name: 'all states', scope: {} },
  { name: 'all counties of Texas', scope: { state_fips: ['48'], county_fips: ['*'] } },
];
const repeatedBody = (scope: Record<string, unknown>) =>
  JSON.stringify({ metrics: ['avoided_premature_mortality_incidence'], upgrade: [HP], ...scope });

/**
 * What one answer costs the serving process's CPU, without HTTP and without the machine's other load in
 * the way: validation, the areas, and the rows' JSON, from the sums loaded in this process.
 */
async function computeCosts(lakeDir: string, note: string): Promise<BenchResult[]> {
  const data = (await loadHealthSnapshot(await openSnapshot(localLake(lakeDir), SNAPSHOT))).data?.[
    DEFAULT_GRID_EMISSIONS
  ];
  return SCOPES.map(({ name, scope }) => {
    const body = JSON.parse(repeatedBody(scope)) as unknown;
    const answer = () => {
      const request = healthImpactsRequestSchema.parse(body);
      requireWildcardAlone(request, healthMessages.en);
      healthAnswerJson(data!, request, resolveAreas(data!, request, healthMessages.en));
    };
    for (let i = 0; i < 200; i++) answer();
    const runs = 2_000;
    // CPU time, not elapsed time: the machine's other processes would count in the latter.
    const started = process.cpuUsage();
    for (let i = 0; i < runs; i++) answer();
    const used = process.cpuUsage(started);
    return {
      name: `${name}, one metric: CPU to compute one answer (in process)`,
      value: (used.user + used.system) / runs,
      unit: 'µs',
      note,
    };
  });
}

export const bench: Bench = {
  title: `POST /api/v2/etools/health-impacts at national size: autocannon -c ${CONNECTIONS} against the real server`,
  async run() {
    const lakeDir = await mkdtemp(path.join(tmpdir(), 'health-bench-'));
    const results: BenchResult[] = [];
    let server: ChildProcess | undefined;
    let baseline: { child: ChildProcess; url: string } | undefined;
    try {
      // The sample incentives: this bench is about the health route, not the incentives' size.
      const lakeEnv = {
        LAKE_DIR: lakeDir,
        INCENTIVES_SOURCE: path.join(ROOT, 'ingest/sample-data/incentives'),
        REM_STATES: 'none',
      };
      await runPipeline(lakeEnv);
      const health = await publishWithHealth(lakeDir);
      const dataNote = `${health.synthetic ? 'SYNTHETIC' : "the pipeline's"} health_county_impacts, ${health.cells} cells`;
      results.push(...(await computeCosts(lakeDir, dataNote)));

      const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
      const serve = async (env: Record<string, string>) => {
        const running = await startServer(
          { ...lakeEnv, API_KEYS: KEY, ...env },
          (body) => (body as { snapshot?: { id?: string } }).snapshot?.id === SNAPSHOT,
        );
        server = running.child;
        return `${running.base}${URL_PATH}`;
      };
      const load = (url: string, scope: Record<string, unknown>, seconds: number, nextBody?: () => string) =>
        measureLoad(url, {
          method: 'POST',
          headers,
          body: repeatedBody(scope),
          connections: CONNECTIONS,
          durationSeconds: seconds,
          nextBody,
        });

      const started = Date.now();
      // First without a response cache, so every request is computed from the sums.
      let url = await serve({ RESPONSE_CACHE_MB: '0' });
      results.push({
        name: 'server start to serving the snapshot (sums the health cells at load)',
        value: (Date.now() - started) / 1000,
        unit: 's',
        note: dataNote,
      });
      const bodies: string[] = [];
      for (const { scope } of SCOPES) {
        const response = await fetch(url, { method: 'POST', headers, body: repeatedBody(scope) });
        const answer = await response.text();
        if (response.status !== 200)
          throw new Error(`${repeatedBody(scope)} answered ${response.status}: ${answer.slice(0, 300)}`);
        bodies.push(answer);
      }
      const loaded = await memoryOf(server!.pid!);
      const bodiesFile = path.join(lakeDir, 'bench-bodies.json');
      await writeFile(bodiesFile, JSON.stringify(bodies));
      baseline = await startBaseline(bodiesFile);
      // The same POST to the bare route (its body read and parsed there too), answered with the same bytes.
      const bare = (i: number) => (seconds: number) =>
        measureLoad(`${baseline!.url}/static/${i}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: repeatedBody(SCOPES[i]!.scope),
          connections: CONNECTIONS,
          durationSeconds: seconds,
        });

      for (const [i, { name, scope }] of SCOPES.entries()) {
        const rows = (JSON.parse(bodies[i]!) as { data: unknown[] }).data.length;
        const nextBody = cyclingBodies(scope);
        const computed = withServerCpu(server!.pid!, (seconds) => load(url, scope, seconds, nextBody));
        await computed.run(1);
        await bare(i)(1);
        const uncached = await interleaved(computed.run, bare(i));
        results.push(
          {
            name: `${name}, one metric, computed for every request (no response cache): p99 latency`,
            value: uncached.a.p99Ms,
            unit: 'ms',
            target: { op: '<', value: 20 },
            note: `${Math.round(uncached.a.requestsPerSecond)} req/s (bare static ${Math.round(uncached.b.requestsPerSecond)} req/s, p99 ${uncached.b.p99Ms} ms); ${rows} rows, ${Buffer.byteLength(bodies[i]!)} B; ${loadNote()}`,
          },
          {
            name: `${name}, computed for every request: throughput / bare static`,
            value: uncached.a.requestsPerSecond / uncached.b.requestsPerSecond,
            unit: 'ratio',
            target: { op: '>=', value: 0.5 },
            note: `${Math.round(uncached.a.requestsPerSecond)} vs ${Math.round(uncached.b.requestsPerSecond)} req/s`,
          },
          {
            name: `${name}, computed: server CPU per request`,
            value: computed.microsecondsPerRequest(),
            unit: 'µs',
            note: 'user + system time of the server process over the measured runs (HTTP included); no target',
          },
          failedRequests(`${name}, computed`, uncached.a),
        );
      }
      const computedPeak = await memoryOf(server!.pid!);
      await stop(server!);

      // Then as served: a repeated body is answered from the response cache.
      url = await serve({});
      for (const [i, { name, scope }] of SCOPES.entries()) {
        await load(url, scope, 1);
        await bare(i)(1);
        const cached = await interleaved((seconds) => load(url, scope, seconds), bare(i));
        results.push(
          {
            name: `${name}, repeated body (cached): throughput / bare static`,
            value: cached.a.requestsPerSecond / cached.b.requestsPerSecond,
            unit: 'ratio',
            target: { op: '>=', value: 0.5 },
            note: `${Math.round(cached.a.requestsPerSecond)} vs ${Math.round(cached.b.requestsPerSecond)} req/s; ${loadNote()}`,
          },
          {
            name: `${name}, repeated body (cached): p99 latency`,
            value: cached.a.p99Ms,
            unit: 'ms',
            target: { op: '<', value: 20 },
            note: `bare static p99 ${cached.b.p99Ms} ms; ${loadNote()}`,
          },
          failedRequests(`${name}, cached`, cached.a),
        );
      }

      const after = await memoryOf(server!.pid!);
      results.push(
        ...memoryResults(
          loaded,
          { peakMb: Math.max(computedPeak.peakMb, after.peakMb) },
          'serving process RSS, sample incentives + national health sums',
          dataNote,
        ),
      );
      return results;
    } finally {
      if (baseline) await stop(baseline.child);
      if (server) await stop(server);
      await rm(lakeDir, { recursive: true, force: true });
    }
  },
};
