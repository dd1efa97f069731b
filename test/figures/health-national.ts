import { runMain, UsageError } from '../../lib/cli-main.ts';
import { HEALTH_POLLUTANTS } from '../../schemas/health-data.ts';
import { openSqlSession, type SqlSession } from '../../data-lake/cli/sql-session.ts';
import { snapshotDir } from '../../data-lake/lake-paths.ts';
import { readManifest } from '../../data-lake/manifest-file.ts';
import { ALL_ELECTRIC, type HealthNationalFigures } from './health-national-figures.ts';
import { writeFigures } from './figure-files.ts';

/*
 * npm run figures:health -- <lake dir> [snapshot id]
 *
 * Reads the national figures the health model card quotes from a lake built with the default sources and
 * REM_STATES=all (its published snapshot, or the one named), writes docs/figures/health-national.json and
 * re-renders the docs that quote it.
 */

/** Counties whose deaths per tonne of home PM2.5 the card quotes: the densest, a large metro, a rural one. */
const NAMED_COUNTIES = [
  ['36061', 'Manhattan'],
  ['06037', 'Los Angeles County'],
  ['30069', 'Petroleum County, MT'],
] as const;
const NAMED_STATES_SO2 = ['NJ', 'WY'] as const;

const numbers = async (session: SqlSession, sql: string): Promise<number[][]> =>
  (await session.query(sql))[0]!.rows.map((row) => row.map(Number));

async function figuresOf(session: SqlSession, lakeDir: string): Promise<HealthNationalFigures> {
  const manifest = await readManifest(snapshotDir(lakeDir, session.snapshotId));
  const remSamples = manifest.tables.rem_clusters?.settings?.REM_SAMPLES;
  if (typeof remSamples !== 'number')
    throw new UsageError('the snapshot has no rem_clusters table with REM_SAMPLES');
  const upgrades = await numbersWithUpgrade(session);
  const kg = (sector: string) =>
    HEALTH_POLLUTANTS.map((p) => `sum(${sector}_${p}_kg_avoided) / 1000`).join(', ');
  const [[households = 0, singleFamilyHouseholds = 0, multiFamilyDeaths = 0, ...tonnes] = []] = await numbers(
    session,
    `select sum(households), sum(households) filter (where housing_type = 'single_family'), sum(deaths_avoided) filter (where housing_type = 'multi_family'),
            ${kg('onsite')}, ${kg('power')}
       from health_county_impacts where upgrade = '${ALL_ELECTRIC}'`,
  );
  const byPollutant = (offset: number) =>
    Object.fromEntries(HEALTH_POLLUTANTS.map((p, i) => [p, tonnes[offset + i] ?? 0])) as Record<
      (typeof HEALTH_POLLUTANTS)[number],
      number
    >;
  const [stateRows] = await session.query(
    `select state, sum(households)::bigint, sum(deaths_avoided), sum(deaths_avoided_onsite), sum(deaths_avoided_power)
       from health_county_impacts where upgrade = '${ALL_ELECTRIC}'
      group by state order by sum(deaths_avoided) / sum(households) desc, state`,
  );
  const [[newYorkSeer18PerMillion = 0] = []] = await numbers(
    session,
    `select sum(deaths_avoided) / sum(households) * 1e6 from health_county_impacts
      where upgrade = 'hvac__heat_pump_seer18_hspf10' and state = 'NY'`,
  );
  const placeFactor = async (where: string) =>
    (
      await numbers(
        session,
        `select deaths_per_tonne from health_place_damage_factors where pollutant = ${where} limit 2`,
      )
    ).map(([value]) => value!);
  const pm25PerTonne = [];
  for (const [fips, county] of NAMED_COUNTIES) {
    const [deaths] = await placeFactor(
      `'pm25' and sector = 'residential_combustion' and county_fips = '${fips}'`,
    );
    if (deaths !== undefined) pm25PerTonne.push({ county, deaths });
  }
  const [[pm25PerTonneNational = 0] = []] = await numbers(
    session,
    `select deaths_per_tonne from health_damage_factors
      where region = 'US' and sector = 'residential_combustion' and pollutant = 'pm25'`,
  );
  const so2PerTonne = [];
  for (const state of NAMED_STATES_SO2) {
    const [deaths] = await placeFactor(`'so2' and sector = 'electricity_generation' and state = '${state}'`);
    if (deaths !== undefined) so2PerTonne.push({ state, deaths });
  }
  return {
    snapshot: session.snapshotId,
    createdAt: manifest.createdAt,
    remSamples,
    upgrades,
    households,
    singleFamilyHouseholds,
    multiFamilyHouseholds: households - singleFamilyHouseholds,
    multiFamilyDeaths,
    tonnesOnsite: byPollutant(0),
    tonnesPower: byPollutant(HEALTH_POLLUTANTS.length),
    states: stateRows!.rows.map(([state, stateHouseholds, deaths, deathsOnsite, deathsPower]) => ({
      state: String(state),
      households: Number(stateHouseholds),
      deaths: Number(deaths),
      deathsOnsite: Number(deathsOnsite),
      deathsPower: Number(deathsPower),
    })),
    newYorkSeer18PerMillion,
    pm25PerTonne,
    pm25PerTonneNational,
    so2PerTonne,
  };
}

async function numbersWithUpgrade(session: SqlSession): Promise<HealthNationalFigures['upgrades']> {
  const [result] = await session.query(
    `select upgrade, sum(deaths_avoided), sum(deaths_avoided_low), sum(deaths_avoided_onsite),
            sum(deaths_avoided_power), sum(mortality_value_usd)
       from health_county_impacts group by upgrade order by upgrade`,
  );
  return result!.rows.map(([upgrade, deaths, deathsLow, deathsOnsite, deathsPower, valueUsd]) => ({
    upgrade: String(upgrade) as HealthNationalFigures['upgrades'][number]['upgrade'],
    deaths: Number(deaths),
    deathsLow: Number(deathsLow),
    deathsOnsite: Number(deathsOnsite),
    deathsPower: Number(deathsPower),
    valueUsd: Number(valueUsd),
  }));
}

runMain(async () => {
  const [lakeDir, snapshotId] = process.argv.slice(2);
  if (!lakeDir) throw new UsageError('usage: npm run figures:health -- <lake dir> [snapshot id]');
  const session = await openSqlSession(lakeDir, snapshotId);
  try {
    const changed = await writeFigures('health-national', await figuresOf(session, lakeDir));
    console.log(
      `health-national figures of ${session.snapshotId} written; docs re-rendered: ${changed.join(', ') || 'none'}`,
    );
  } finally {
    session.close();
  }
  return 0;
});
