import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { configSchema } from '../../schemas/config.ts';
import { FUELS, UPGRADES } from '../../schemas/rem.ts';
import { RESULT_FUELS, SCENARIOS } from '../../schemas/rem-data.ts';
import { CONTIGUOUS_STATES } from '../../serve/rem/rem-data.ts';
import { quoteLiteral } from '../../data-lake/sql-quote.ts';
import type { BenchResult } from '../figures/bench-result.ts';
import type { Bench } from './bench.ts';
import { publishBenchSnapshot } from './bench-snapshot.ts';
import { freePort, runPipeline, stop } from '../support/processes.ts';
import {
  CONNECTIONS,
  DURATION_SECONDS,
  loadNote,
  failedRequests,
  interleaved,
  memoryOf,
  memoryResults,
  nationalSource,
  startBaseline,
  startServer,
  withServerCpu,
} from './server-processes.ts';
import { measureLoad, type LoadFigures } from './load.ts';

/*
 * The REM routes at national size, served by the real server beside the national incentives. The
 * pipeline builds the snapshot (incentives, and the REM county, ZIP, rate and emission-factor tables from
 * the default sources). While it has no rem_cluster_statistics, a copy of it gets a SYNTHETIC one of
 * national size (every county × 4 heating fuels × 4 water-heater options, all 8 upgrades; numbers from a
 * hash); the figures say which they were measured on.
 */

const KEY = 'bench-rem-key-0123456789abcdef';
const SNAPSHOT = 'rem-bench';
/**
 * A profile costs ~9 ms of CPU (up to 4,000 homes drawn, 400 evaluated), computed on the server's profile
 * threads (REM_MODEL_THREADS, passed through from this process's environment): measured with one client
 * (the request's own cost) and with four (more clients than threads, so requests also wait for one; on
 * this 2-core machine, which the load generator shares, 10 or 50 would measure only that queue).
 */
const PROFILE_CONNECTIONS = [1, 4];
/** Clients asking never-asked addresses while profiles are computed. */
const ADDRESS_CLIENTS_BESIDE_PROFILES = 10;
/** The simulate stage's tables, replaced by synthetic ones while the pipeline computed none. */
const SYNTHETIC_TABLES = ['rem_clusters', 'rem_cluster_statistics'];
const LOCATION_TABLES = ['rem_counties', 'rem_zip_counties', 'rem_energy_rates', 'rem_emission_factors'];
const WATER_HEATER_OPTIONS = [null, 'electricity', 'natural_gas', 'propane'] as const;
/**
 * States the synthetic table leaves out (over 700 counties): their clusters are computed on the first
 * request by the REM model, as for any county outside REM_STATES.
 */
const NEVER_ASKED_STATES = ['TX', 'GA', 'VA', 'KY', 'MO'];
/** Never-asked counties requested a second beside the cached load, each request a county not asked before. */
const NEVER_ASKED_PER_SECOND = 8;
/** The cached answer measured alone and beside the never-asked counties. */
const CACHED_CALCULATOR =
  '/api/v1/calculator?zip=02116&household_income=60000&household_size=3&tax_filing=single' +
  '&owner_status=homeowner&utility=ma-eversource';

const sqlValues = (values: readonly (string | null)[]) =>
  values.map((v) => `(${v === null ? 'NULL::VARCHAR' : quoteLiteral(v)})`).join(', ');

/** A number per (line, column) that looks like a statistic: positive, spread, deterministic. */
const hashedStatistic = (column: number, scale: number) =>
  `(hash(cluster_id, upgrade, fuel, scenario, ${column}) % 1000000) / 1000000.0 * ${scale} * (CASE WHEN scenario = 'delta' THEN -0.3 ELSE 1 END)`;

/** A SYNTHETIC national-size rem_cluster_statistics over the snapshot's real counties (but NEVER_ASKED_STATES'). */
async function createSyntheticStatistics(db: DuckDBConnection): Promise<void> {
  const units = `CASE fuel WHEN 'natural_gas' THEN 'therm' WHEN 'fuel_oil' THEN 'gallon' WHEN 'propane' THEN 'gallon' ELSE 'kWh' END`;
  const measures = ['energy', 'emissions', 'cost'].flatMap((measure, m) =>
    ['mean', 'median', 'p20', 'p80'].map(
      (statistic, s) =>
        `${hashedStatistic(m * 4 + s, [20_000, 5_000, 3_000][m]!)} AS ${measure}_${statistic}`,
    ),
  );
  await db.run(`CREATE TABLE rem_cluster_statistics AS
    WITH lines AS (
      SELECT c.county_fips || '|' || h.fuel || '|' || coalesce(w.fuel, '-') AS cluster_id, c.county_fips, c.state,
        h.fuel AS heating_fuel, w.fuel AS water_heater_fuel, u.upgrade, f.fuel, s.scenario
      FROM rem_counties c, (VALUES ${sqlValues(FUELS)}) h(fuel), (VALUES ${sqlValues(WATER_HEATER_OPTIONS)}) w(fuel),
        (VALUES ${sqlValues(UPGRADES)}) u(upgrade), (VALUES ${sqlValues(RESULT_FUELS)}) f(fuel),
        (VALUES ${sqlValues(SCENARIOS)}) s(scenario)
      WHERE (u.upgrade <> 'baseline' OR s.scenario = 'baseline')
        AND c.state NOT IN (${NEVER_ASKED_STATES.map(quoteLiteral).join(', ')}))
    SELECT *, ${units} AS energy_unit, ${measures.join(', ')}, 400 AS num_samples, 0 AS num_excluded_samples FROM lines`);
}

/** Copies the published (incentives) snapshot into a new one with the REM tables, and publishes it. */
export async function publishWithRem(lakeDir: string) {
  return publishBenchSnapshot(
    lakeDir,
    {
      snapshotId: SNAPSHOT,
      fingerprintSuffix: 'rem-bench',
      tables: SYNTHETIC_TABLES,
      // The real precompute, when the pipeline has it; else a synthetic table of national size.
      lacks: (manifest) => {
        for (const table of LOCATION_TABLES) {
          if (!(table in manifest.tables)) throw new Error(`the pipeline built no ${table} table`);
        }
        return (manifest.tables.rem_cluster_statistics?.rows ?? 0) === 0;
      },
      create: async (db) => {
        await createSyntheticStatistics(db);
        await db.run(`CREATE TABLE rem_clusters AS SELECT DISTINCT cluster_id, county_fips, heating_fuel,
          water_heater_fuel, true AS supported FROM rem_cluster_statistics`);
      },
    },
    async (db) => {
      const count = async (sql: string) => Number((await db.runAndReadAll(sql)).getColumns()[0]![0]);
      const zipsOf = async (sql: string) =>
        ((await db.runAndReadAll(sql)).getRows() as [string, string][]).filter(([, state]) =>
          CONTIGUOUS_STATES.has(state),
        );
      const precomputed = 'SELECT county_fips FROM rem_clusters';
      return {
        clusters: await count('SELECT count(DISTINCT cluster_id) FROM rem_cluster_statistics'),
        lines: await count('SELECT count(*) FROM rem_cluster_statistics'),
        // The ZIPs of precomputed counties, and one ZIP per county with no cluster precomputed.
        zips: await zipsOf(
          `SELECT zip, state FROM rem_zip_counties WHERE county_fips IN (${precomputed}) ORDER BY hash(zip)`,
        ),
        neverAsked: await zipsOf(
          `SELECT min(zip), any_value(state) FROM rem_zip_counties WHERE county_fips NOT IN (${precomputed})
           GROUP BY county_fips ORDER BY hash(county_fips)`,
        ),
      };
    },
  );
}

const addressPath = (
  zip: string,
  state: string,
  upgrade: string,
  heating: string,
  waterHeater: string | null,
) =>
  `/api/v1/rem/address?address=${encodeURIComponent(`1 Main St, Town, ${state} ${zip}`)}&upgrade=${upgrade}` +
  `&heating_fuel=${heating}${waterHeater === null ? '' : `&water_heater_fuel=${waterHeater}`}`;

/**
 * What model work a request triggers costs the other requests: the cached calculator answer at 50
 * connections alone, and again while a paced client asks NEVER_ASKED_PER_SECOND never-asked counties a
 * second via /rem/address (each a county no request asked before, computed by the REM model on its
 * threads), in alternating slices. Target: the cached answer's p99 within 2 ms of its p99 alone.
 */
async function cachedBesideNeverAskedCounties(
  base: string,
  headers: Record<string, string>,
  neverAsked: readonly (readonly [string, string])[],
): Promise<BenchResult[]> {
  let n = 0;
  const nextCounty = () => {
    const [zip, state] = neverAsked[n++ % neverAsked.length]!;
    return addressPath(zip, state, 'hvac__heat_pump_seer18_hspf10', 'natural_gas', null);
  };
  const cached = (seconds: number) =>
    measureLoad(`${base}${CACHED_CALCULATOR}`, {
      headers,
      connections: CONNECTIONS,
      durationSeconds: seconds,
    });
  const misses: LoadFigures[] = [];
  const besideMisses = async (seconds: number) => {
    const [answers, asked] = await Promise.all([
      cached(seconds),
      // A county's fuels may be too rare there to estimate (400): computed all the same.
      measureLoad(`${base}${nextCounty()}`, {
        headers,
        connections: 4,
        durationSeconds: seconds,
        ratePerSecond: NEVER_ASKED_PER_SECOND,
        nextPath: nextCounty,
        alsoOk: [400],
      }),
    ]);
    misses.push(asked);
    return answers;
  };
  await cached(1);
  const { a: alone, b: beside } = await interleaved(cached, besideMisses);
  const asked = misses.reduce((sum, f) => sum + f.requestsPerSecond, 0) / misses.length;
  const missP99 = misses.map((f) => f.p99Ms).sort((x, y) => x - y)[Math.floor(misses.length / 2)];
  return [
    {
      name: 'cached calculator (MA 02116), 50 connections, alone: p99 latency',
      value: alone.p99Ms,
      unit: 'ms',
      note: `${Math.round(alone.requestsPerSecond)} req/s; ${loadNote()}`,
    },
    {
      name: `cached calculator, 50 connections, beside ${NEVER_ASKED_PER_SECOND} never-asked counties a second (/rem/address): p99 latency`,
      value: beside.p99Ms,
      unit: 'ms',
      note:
        `${Math.round(beside.requestsPerSecond)} req/s; the counties: ${asked.toFixed(1)} a second, p99 ${missP99} ms, ` +
        `${n} asked, none asked before (${NEVER_ASKED_STATES.join(', ')} not precomputed), computed on the REM model's threads`,
    },
    {
      name: 'cached calculator p99 beside never-asked counties − alone',
      value: beside.p99Ms - alone.p99Ms,
      unit: 'ms',
      target: { op: '<=', value: 2 },
      note: 'alternating slices of each; the 2 cores are shared by the server, its model threads and the load generators',
    },
    failedRequests('cached calculator beside never-asked counties', beside),
    failedRequests(
      'never-asked counties',
      misses.reduce((all, f) => ({ ...all, failed: all.failed + f.failed }), { ...misses[0]!, failed: 0 }),
    ),
  ];
}

export const bench: Bench = {
  title: `REM routes at national size beside the national incentives: autocannon -c ${CONNECTIONS} against the real server`,
  async run() {
    const source = nationalSource();
    const lakeDir = await mkdtemp(path.join(tmpdir(), 'rem-bench-'));
    const results: BenchResult[] = [];
    let server: ChildProcess | undefined;
    let quietServer: ChildProcess | undefined;
    let loggedServer: ChildProcess | undefined;
    let baseline: { child: ChildProcess; url: string } | undefined;
    try {
      // REM_STATES=HEALTH_STATES=none: the national precompute takes far longer than a bench (see the simulate bench).
      const lakeEnv = {
        LAKE_DIR: lakeDir,
        INCENTIVES_SOURCE: source.location,
        REM_STATES: process.env.REM_STATES ?? 'none',
        HEALTH_STATES: process.env.HEALTH_STATES ?? 'none',
      };
      await runPipeline(lakeEnv);
      const rem = await publishWithRem(lakeDir);
      const dataNote =
        `${source.note ?? 'national incentives'}; REM: the pipeline's counties, ZIPs, rates and factors, ` +
        `${rem.synthetic ? 'SYNTHETIC' : 'precomputed'} statistics (${rem.clusters} clusters, ${rem.lines} lines)`;

      const started = Date.now();
      // Its metrics say how many of the new URLs' answers were kept ones (see `keptShare`).
      const metricsUrl = `http://127.0.0.1:${await freePort()}/metrics`;
      const running = await startServer(
        { ...lakeEnv, API_KEYS: KEY, METRICS_PORT: new URL(metricsUrl).port },
        (health) => (health as { snapshot?: { id?: string } }).snapshot?.id === SNAPSHOT,
      );
      server = running.child;
      const base = running.base;
      results.push({
        name: 'server start to serving the snapshot (first start: builds the REM slot file)',
        value: (Date.now() - started) / 1000,
        unit: 's',
        note: dataNote,
      });
      const headers = { authorization: `Bearer ${KEY}` };

      const [zip, state] = rem.zips[0]!;
      const repeated = addressPath(zip, state, 'hvac__heat_pump_seer18_hspf10', 'natural_gas', null);
      const response = await fetch(`${base}${repeated}`, { headers });
      const body = await response.text();
      if (response.status !== 200)
        throw new Error(`${repeated} answered ${response.status}: ${body.slice(0, 300)}`);
      const loaded = await memoryOf(server.pid!);
      const bodiesFile = path.join(lakeDir, 'bench-bodies.json');
      await writeFile(bodiesFile, JSON.stringify([body]));
      baseline = await startBaseline(bodiesFile);

      const route = (seconds: number) =>
        measureLoad(`${base}${repeated}`, { headers, connections: CONNECTIONS, durationSeconds: seconds });
      const bare = (seconds: number) =>
        measureLoad(`${baseline!.url}/static/0`, {
          headers,
          connections: CONNECTIONS,
          durationSeconds: seconds,
        });
      await route(1);
      await bare(1);
      const cached = await interleaved(route, bare);
      results.push(
        {
          name: '/rem/address, repeated URL (cached): throughput / bare static',
          value: cached.a.requestsPerSecond / cached.b.requestsPerSecond,
          unit: 'ratio',
          target: { op: '>=', value: 0.5 },
          note: `${Math.round(cached.a.requestsPerSecond)} vs ${Math.round(cached.b.requestsPerSecond)} req/s, ${Buffer.byteLength(body)} B body; ${loadNote()}`,
        },
        failedRequests('/rem/address, repeated URL', cached.a),
      );

      // Every request a URL never asked before: a new ZIP (so often a new county), fuels and upgrade. Answers
      // are named by county cluster (and kept from a name's second request), so another ZIP of a county
      // asked with the same fuels and upgrade gets a kept answer: the note says how many did.
      let i = 0;
      const nextPath = () => {
        const n = i++;
        const [z, s] = rem.zips[n % rem.zips.length]!;
        const upgrade = UPGRADES[Math.floor(n / rem.zips.length) % UPGRADES.length]!;
        const drawn = WATER_HEATER_OPTIONS[(n >> 2) % WATER_HEATER_OPTIONS.length]!;
        const waterHeater =
          drawn === null && upgrade === 'water_heater__heat_pump_uef3.35' ? 'natural_gas' : drawn;
        return addressPath(z, s, upgrade, FUELS[n % FUELS.length]!, waterHeater);
      };
      const uncachedRoute = withServerCpu(server.pid!, (seconds: number) =>
        measureLoad(`${base}${repeated}`, {
          headers,
          connections: CONNECTIONS,
          durationSeconds: seconds,
          nextPath,
        }),
      );
      await uncachedRoute.run(1);
      await bare(1);
      const lookupsBefore = await cacheLookups(metricsUrl);
      const uncached = await interleaved(uncachedRoute.run, bare);
      const kept = keptShare(lookupsBefore, await cacheLookups(metricsUrl));
      results.push(
        {
          name: '/rem/address, a new URL every request (uncached): p99 latency',
          value: uncached.a.p99Ms,
          unit: 'ms',
          target: { op: '<', value: 10 },
          note: `${Math.round(uncached.a.requestsPerSecond)} req/s (bare static ${Math.round(uncached.b.requestsPerSecond)} req/s, p99 ${uncached.b.p99Ms} ms); ${i} distinct URLs, ${(100 * kept).toFixed(1)} % answered with a kept answer of their county cluster; ${loadNote()}`,
        },
        {
          name: '/rem/address, a new URL every request (uncached): throughput / bare static',
          value: uncached.a.requestsPerSecond / uncached.b.requestsPerSecond,
          unit: 'ratio',
          target: { op: '>=', value: 0.5 },
          note: `${Math.round(uncached.a.requestsPerSecond)} vs ${Math.round(uncached.b.requestsPerSecond)} req/s`,
        },
        {
          name: '/rem/address, uncached: server CPU per request',
          value: uncachedRoute.microsecondsPerRequest(),
          unit: 'µs',
          note: 'user + system time of the server process over the measured runs; no target (what the latency is made of, less the queue)',
        },
        failedRequests('/rem/address, uncached', uncached.a),
      );
      const afterAddresses = await memoryOf(server.pid!);

      // What the default logging (a line per request, at info) costs: the same never-asked addresses, in
      // alternating slices, against two new servers on the same lake started one after the other, one in
      // the default configuration and one with LOG_LEVEL=warn (no request lines), so both have the same
      // history.
      const ready = (health: unknown) => (health as { snapshot?: { id?: string } }).snapshot?.id === SNAPSHOT;
      const logged = await startServer({ ...lakeEnv, API_KEYS: KEY }, ready);
      loggedServer = logged.child;
      const quiet = await startServer({ ...lakeEnv, API_KEYS: KEY, LOG_LEVEL: 'warn' }, ready);
      quietServer = quiet.child;
      const newAddresses = (target: string) => (seconds: number) =>
        measureLoad(`${target}${repeated}`, {
          headers,
          connections: CONNECTIONS,
          durationSeconds: seconds,
          nextPath,
        });
      // Both warmed alike (JIT, pages of the REM data faulted in) before the measured slices.
      for (const target of [logged.base, quiet.base, logged.base, quiet.base])
        await newAddresses(target)(DURATION_SECONDS / 2);
      const logging = await interleaved(newAddresses(logged.base), newAddresses(quiet.base));
      await stop(logged.child);
      await stop(quiet.child);
      results.push(
        {
          name: '/rem/address, uncached: throughput with the default logging / with LOG_LEVEL=warn',
          value: logging.a.requestsPerSecond / logging.b.requestsPerSecond,
          unit: 'ratio',
          target: { op: '>=', value: 0.9 },
          note: `default ${Math.round(logging.a.requestsPerSecond)} req/s, p99 ${logging.a.p99Ms} ms; LOG_LEVEL=warn ${Math.round(logging.b.requestsPerSecond)} req/s, p99 ${logging.b.p99Ms} ms; two new servers on the same lake, alternating slices; ${loadNote()}`,
        },
        failedRequests('/rem/address, uncached, default logging', logging.a),
        failedRequests('/rem/address, uncached, LOG_LEVEL=warn', logging.b),
      );

      // A building profile is computed for every request (drawn, matched, evaluated through the surrogate).
      const profile = JSON.stringify({
        upgrade: 'hvac__heat_pump_seer18_hspf10',
        heating_fuel: 'natural_gas',
        building_profile: {
          county: 'G4400070',
          building_features: { geometry_floor_area: 1800, hvac_heating_type: ['Ducted Heating'] },
        },
      });
      const profileHeaders = { ...headers, 'content-type': 'application/json' };
      const profileCheck = await fetch(`${base}/api/v1/rem/profile`, {
        method: 'POST',
        headers: profileHeaders,
        body: profile,
      });
      if (profileCheck.status !== 200)
        throw new Error(`/rem/profile answered ${profileCheck.status}: ${await profileCheck.text()}`);
      const threads = configSchema.shape.REM_MODEL_THREADS.parse(process.env.REM_MODEL_THREADS || undefined);
      const threadsNote = `REM_MODEL_THREADS ${threads}`;
      const profileLoad = (connections: number) => (seconds: number) =>
        measureLoad(`${base}/api/v1/rem/profile`, {
          method: 'POST',
          body: profile,
          headers: profileHeaders,
          connections,
          durationSeconds: seconds,
        });
      for (const connections of PROFILE_CONNECTIONS) {
        const profileRoute = withServerCpu(server.pid!, profileLoad(connections));
        await profileRoute.run(1);
        const profiled = await interleaved(profileRoute.run, bare);
        results.push(
          {
            name: `/rem/profile (computed per request, ${connections} connections): p99 latency`,
            value: profiled.a.p99Ms,
            unit: 'ms',
            target: { op: '<', value: 50 },
            note: `${Math.round(profiled.a.requestsPerSecond)} req/s; ${threadsNote}; ${loadNote()}`,
          },
          {
            name: `/rem/profile, ${connections} connections: server CPU per profile`,
            value: profileRoute.microsecondsPerRequest() / 1000,
            unit: 'ms',
            note: 'user + system time of the server process (all its threads) over the measured runs: draw, match, surrogate, and the hand-over to a thread; no target',
          },
          failedRequests(`/rem/profile, ${connections} connections`, profiled.a),
        );
      }

      // Other clients' never-asked addresses while four clients keep the profile threads busy: computed on
      // the event loop alone, the addresses would wait behind whole profiles (~9 ms each).
      const addressesAlone = await measureLoad(`${base}${repeated}`, {
        headers,
        connections: ADDRESS_CLIENTS_BESIDE_PROFILES,
        durationSeconds: 2,
        nextPath,
      });
      const [addressesBeside, profilesBeside] = await Promise.all([
        measureLoad(`${base}${repeated}`, {
          headers,
          connections: ADDRESS_CLIENTS_BESIDE_PROFILES,
          durationSeconds: 4,
          nextPath,
        }),
        profileLoad(4)(4),
      ]);
      results.push(
        {
          name: `/rem/address, uncached, ${ADDRESS_CLIENTS_BESIDE_PROFILES} connections beside 4 busy /rem/profile connections: p99 latency`,
          value: addressesBeside.p99Ms,
          unit: 'ms',
          note: `${Math.round(addressesBeside.requestsPerSecond)} req/s; alone just before: p99 ${addressesAlone.p99Ms} ms, ${Math.round(addressesAlone.requestsPerSecond)} req/s; the profiles meanwhile: p99 ${profilesBeside.p99Ms} ms, ${Math.round(profilesBeside.requestsPerSecond)} req/s; no target (the cores are shared, not the event loop); ${loadNote()}`,
        },
        failedRequests('/rem/address beside /rem/profile', addressesBeside),
        failedRequests('/rem/profile beside /rem/address', profilesBeside),
      );

      const after = await memoryOf(server.pid!);
      if (rem.neverAsked.length > 0) {
        results.push(...(await cachedBesideNeverAskedCounties(base, headers, rem.neverAsked)));
      }
      results.push(
        ...memoryResults(loaded, after, 'serving process RSS, national incentives + REM loaded', dataNote),
        {
          name: 'serving process RSS after the profile runs (the profile threads started)',
          value: Math.round(after.rssMb),
          unit: 'MB',
          target: { op: '<', value: 400 },
          note: threadsNote,
        },
        {
          name: 'serving process peak RSS over the /rem/address runs (before any profile)',
          value: Math.round(afterAddresses.peakMb),
          unit: 'MB',
          target: { op: '<', value: 400 },
          note: `the profile runs then start the profile threads, each with its own ONNX session and sampler tables; SERVE_HEAP_GROWTH_PERCENT ${process.env.SERVE_HEAP_GROWTH_PERCENT ?? 'default'}`,
        },
      );
      return results;
    } finally {
      if (baseline) await stop(baseline.child);
      if (server) await stop(server);
      if (quietServer) await stop(quietServer);
      if (loggedServer) await stop(loggedServer);
      await rm(lakeDir, { recursive: true, force: true });
    }
  },
};

/** The response cache's hits and misses so far, from the server's Prometheus metrics. */
async function cacheLookups(metricsUrl: string): Promise<{ hits: number; misses: number }> {
  const text = await (await fetch(metricsUrl)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    hits: value('electrify_response_cache_hits_total'),
    misses: value('electrify_response_cache_misses_total'),
  };
}

/** The share of the lookups between two readings that found a kept answer. */
function keptShare(
  before: { hits: number; misses: number },
  after: { hits: number; misses: number },
): number {
  const hits = after.hits - before.hits;
  return hits / (hits + after.misses - before.misses);
}
