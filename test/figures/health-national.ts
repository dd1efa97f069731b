import { runLakeFiguresCommand, snapshotOrigin } from './lake-figures-command.ts';
import { HEALTH_POLLUTANTS } from '../../schemas/health-data.ts';
import type { SqlSession } from '../../data-lake/cli/sql-session.ts';
import { ALL_ELECTRIC, type HealthNationalFigures } from './health-national-figures.ts';

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
const SEER_18 = 'hvac__heat_pump_seer18_hspf10';
/** Cells on the default grid basis: every figure but the today's-grid ones is the long run's. */
const LONG_RUN = "grid_emissions = 'long_run'";

const numbers = async (session: SqlSession, sql: string): Promise<number[][]> =>
  (await session.query(sql))[0]!.rows.map((row) => row.map(Number));

async function figuresOf(session: SqlSession, lakeDir: string): Promise<HealthNationalFigures> {
  const { createdAt, remSamples } = await snapshotOrigin(session, lakeDir);
  const upgrades = await numbersWithUpgrade(session);
  const seer18 = await seer18States(session);
  const kg = (sector: string) =>
    HEALTH_POLLUTANTS.map((p) => `sum(${sector}_${p}_kg_avoided) / 1000`).join(', ');
  const [[households = 0, singleFamilyHouseholds = 0, multiFamilyDeaths = 0, ...tonnes] = []] = await numbers(
    session,
    `select sum(households), sum(households) filter (where housing_type = 'single_family'), sum(deaths_avoided) filter (where housing_type = 'multi_family'),
            ${kg('onsite')}, ${kg('power')}
       from health_county_impacts where upgrade = '${ALL_ELECTRIC}' and ${LONG_RUN}`,
  );
  const byPollutant = (offset: number) =>
    Object.fromEntries(HEALTH_POLLUTANTS.map((p, i) => [p, tonnes[offset + i] ?? 0])) as Record<
      (typeof HEALTH_POLLUTANTS)[number],
      number
    >;
  const [stateRows] = await session.query(
    `select state, sum(households)::bigint, sum(deaths_avoided), sum(deaths_avoided_onsite), sum(deaths_avoided_power)
       from health_county_impacts where upgrade = '${ALL_ELECTRIC}' and ${LONG_RUN}
      group by state order by sum(deaths_avoided) / sum(households) desc, state`,
  );
  const [[newYorkSeer18PerMillion = 0] = []] = await numbers(
    session,
    `select sum(deaths_avoided) / sum(households) * 1e6 from health_county_impacts
      where upgrade = '${SEER_18}' and state = 'NY' and ${LONG_RUN}`,
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
    createdAt,
    remSamples,
    upgrades,
    seer18States: seer18,
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
    `select upgrade, grid_emissions, sum(deaths_avoided), sum(deaths_avoided_low), sum(deaths_avoided_onsite),
            sum(deaths_avoided_power), sum(mortality_value_usd)
       from health_county_impacts group by upgrade, grid_emissions order by upgrade`,
  );
  const byBasis = new Map<string, HealthNationalFigures['upgrades'][number]['currentAverage']>();
  for (const [upgrade, basis, deaths, deathsLow, deathsOnsite, deathsPower, valueUsd] of result!.rows)
    byBasis.set(`${String(upgrade)}|${String(basis)}`, {
      deaths: Number(deaths),
      deathsLow: Number(deathsLow),
      deathsOnsite: Number(deathsOnsite),
      deathsPower: Number(deathsPower),
      valueUsd: Number(valueUsd),
    });
  const upgrades = [...new Set(result!.rows.map(([upgrade]) => String(upgrade)))];
  return upgrades.map((upgrade) => ({
    upgrade: upgrade as HealthNationalFigures['upgrades'][number]['upgrade'],
    ...byBasis.get(`${upgrade}|long_run`)!,
    currentAverage: byBasis.get(`${upgrade}|current_average`)!,
  }));
}

/** Every state's SEER 18 heat pump figures on both grid bases: all households, and the gas-heated ones. */
async function seer18States(session: SqlSession): Promise<HealthNationalFigures['seer18States']> {
  const [result] = await session.query(
    `select state,
            sum(households) filter (where ${LONG_RUN})::bigint,
            sum(deaths_avoided_onsite) filter (where ${LONG_RUN}),
            sum(deaths_avoided_power) filter (where ${LONG_RUN}),
            sum(deaths_avoided_power) filter (where grid_emissions = 'current_average'),
            sum(deaths_avoided) filter (where ${LONG_RUN} and heating_fuel = 'natural_gas'),
            sum(deaths_avoided) filter (where grid_emissions = 'current_average' and heating_fuel = 'natural_gas')
       from health_county_impacts where upgrade = '${SEER_18}' group by state order by state`,
  );
  return result!.rows.map(
    ([state, households, onsite, powerLongRun, powerCurrent, gasLongRun, gasCurrent]) => ({
      state: String(state),
      households: Number(households),
      deathsOnsite: Number(onsite),
      powerLongRun: Number(powerLongRun),
      powerCurrent: Number(powerCurrent),
      gasHeated: { longRun: Number(gasLongRun ?? 0), current: Number(gasCurrent ?? 0) },
    }),
  );
}

runLakeFiguresCommand('health-national', 'figures:health', figuresOf);
