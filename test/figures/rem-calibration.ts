import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { runLakeFiguresCommand, snapshotOrigin } from './lake-figures-command.ts';
import type { SqlSession } from '../../data-lake/cli/sql-session.ts';
import { FUELS, type Fuel } from '../../schemas/rem.ts';
import { climateById } from '../../model/climate/climate.ts';
import { propaneShareOfOther } from '../../model/parameters/heating-fuel.ts';
import { FUEL_ENERGY_UNITS } from '../../model/savings/fuel-prices.ts';
import { KWH_PER_MMBTU } from '../../model/units.ts';
import { REPO_ROOT } from './figure-files.ts';
import { DIVISIONS, type Pair, type RemCalibrationFigures } from './rem-calibration-figures.ts';

/*
 * npm run figures:rem -- <lake dir> [snapshot id]
 *
 * The REM model card's calibration table, from a lake built with the default sources and REM_STATES=all (its
 * published snapshot, or the one named): the mean baseline consumption of each state's and division's
 * single-family homes heating with each fuel (the drawn-water-heater clusters, weighted by the county's
 * single-family households heating with it), against published figures: EIA SEDS per state, EIA RECS 2020 per
 * division and nationally (test/figures/rem-calibration/, ingest/default-data/rem/SOURCES.md). Writes
 * docs/figures/rem-calibration.json and re-renders docs/rem-model.md.
 */

const DATA = path.join(REPO_ROOT, 'test', 'figures', 'rem-calibration');
const csvFile = async (file: string): Promise<Record<string, string>[]> =>
  parseCsv(await readFile(file), { columns: true, skip_empty_lines: true, trim: true }) as Record<
    string,
    string
  >[];

const DIVISION_OF = new Map(Object.entries(DIVISIONS).flatMap(([d, states]) => states.map((s) => [s, d])));

/** kWh of the unit each fuel is compared in (therm, kWh, gallon of oil or propane). */
const kwhPerUnit = (fuel: Fuel) => FUEL_ENERGY_UNITS[fuel].kwhPerUnit;

interface Place {
  /** Single-family households heating with each fuel, and their summed mean consumption of it. */
  weight: Record<Fuel, number>;
  sum: Record<Fuel, number>;
  /** All single-family households of the four fuels, and their summed electricity. */
  allWeight: number;
  allElectricity: number;
  hddWeight: number;
  hddSum: number;
}

const zeros = () => Object.fromEntries(FUELS.map((f) => [f, 0])) as Record<Fuel, number>;
const emptyPlace = (): Place => ({
  weight: zeros(),
  sum: zeros(),
  allWeight: 0,
  allElectricity: 0,
  hddWeight: 0,
  hddSum: 0,
});

/** The model's side: per state and division, means of the lake's baseline lines, and the HDD the homes saw. */
async function modelPlaces(session: SqlSession): Promise<Map<string, Place>> {
  const [counties] = await session.query(
    `select county_fips, state, households, multi_unit_share, station_id,
            heating_fuel_shares.electricity, heating_fuel_shares.natural_gas,
            heating_fuel_shares.fuel_oil, heating_fuel_shares.propane
       from rem_counties order by county_fips`,
  );
  const [lines] = await session.query(
    `select county_fips, heating_fuel, fuel, energy_mean from rem_cluster_statistics
      where upgrade = 'baseline' and scenario = 'baseline' and water_heater_fuel is null and fuel <> 'total'`,
  );
  const means = new Map<string, number>();
  for (const [fips, heating, fuel, mean] of lines!.rows)
    means.set(`${String(fips)}|${String(heating)}|${String(fuel)}`, Number(mean));
  const places = new Map<string, Place>();
  const placesOf = (state: string) =>
    [state, DIVISION_OF.get(state)!, 'US'].map((key) => {
      let place = places.get(key);
      if (!place) places.set(key, (place = emptyPlace()));
      return place;
    });
  for (const [fips, state, households, multiUnit, station, ...shares] of counties!.rows) {
    const singleFamily = Math.round(Number(households) * (1 - Number(multiUnit)));
    const hdd = climateById(String(station)).hdd65;
    for (const place of placesOf(String(state))) {
      place.hddWeight += singleFamily;
      place.hddSum += singleFamily * hdd;
      FUELS.forEach((fuel, f) => {
        const weight = singleFamily * Number(shares[f]);
        const own = means.get(`${String(fips)}|${fuel}|${fuel}`);
        const electricity = means.get(`${String(fips)}|${fuel}|electricity`);
        if (weight === 0 || own === undefined || electricity === undefined) return;
        place.weight[fuel] += weight;
        place.sum[fuel] += weight * own;
        place.allWeight += weight;
        place.allElectricity += weight * electricity;
      });
    }
  }
  return places;
}

const modelMean = (place: Place, fuel: Fuel, allHouseholds: boolean): number | null => {
  if (allHouseholds) return place.allWeight > 0 ? place.allElectricity / place.allWeight : null;
  return place.weight[fuel] > 0 ? place.sum[fuel] / place.weight[fuel] : null;
};

/**
 * Per state: EIA SEDS residential consumption (mean of 2017–2019) ÷ ACS 2020–2024 households heating with the
 * fuel (propane: the state's ACS propane share of its "other" heating, as rem_counties splits it); electricity
 * ÷ all households. Also each state's share of households heating with each fuel.
 */
async function sedsPerHousehold(): Promise<
  Map<string, { published: Record<Fuel, number>; shares: Record<Fuel, number> }>
> {
  const seds = await csvFile(path.join(DATA, 'eia-seds-residential-consumption-2017-2019.csv'));
  const acs = await csvFile(
    path.join(REPO_ROOT, 'ingest/default-data/rem/county-heating-fuel-acs-2020-2024.csv'),
  );
  const stateOfFips = new Map(
    (await csvFile(path.join(REPO_ROOT, 'ingest/default-data/rem/counties.csv'))).map((row) => [
      row.county_fips!.slice(0, 2),
      row.state!,
    ]),
  );
  const units = new Map<
    string,
    { all: number; natural_gas: number; electricity: number; fuel_oil: number; other: number }
  >();
  for (const row of acs) {
    const state = stateOfFips.get(row.county_fips!.slice(0, 2));
    if (!state) continue;
    const n = Number(row.occupied_units);
    const t = units.get(state) ?? { all: 0, natural_gas: 0, electricity: 0, fuel_oil: 0, other: 0 };
    t.all += n;
    for (const key of ['natural_gas', 'electricity', 'fuel_oil', 'other'] as const)
      t[key] += n * Number(row[key]);
    units.set(state, t);
  }
  const consumption = new Map<string, number[]>();
  for (const row of seds) {
    // ACS counts fuel oil and kerosene together.
    const fuel = row.fuel === 'distillate_fuel_oil' || row.fuel === 'kerosene' ? 'fuel_oil' : row.fuel!;
    const key = `${row.state}|${fuel}|${row.year}`;
    consumption.set(key, [...(consumption.get(key) ?? []), Number(row.billion_btu)]);
  }
  const yearsMean = (state: string, fuel: Fuel) => {
    const years = [2017, 2018, 2019].map((year) =>
      (consumption.get(`${state}|${fuel}|${year}`) ?? []).reduce((a, b) => a + b, 0),
    );
    return years.reduce((a, b) => a + b, 0) / years.length;
  };
  const out = new Map<string, { published: Record<Fuel, number>; shares: Record<Fuel, number> }>();
  for (const [state, t] of units) {
    const shareOf = (count: number) => count / t.all;
    const propane =
      t.other *
      propaneShareOfOther(state, {
        natural_gas: shareOf(t.natural_gas),
        electricity: shareOf(t.electricity),
        fuel_oil: shareOf(t.fuel_oil),
        other: shareOf(t.other),
      });
    const heating: Record<Fuel, number> = {
      natural_gas: t.natural_gas,
      electricity: t.electricity,
      fuel_oil: t.fuel_oil,
      propane,
    };
    const unitsOf = (fuel: Fuel) => (yearsMean(state, fuel) * 1e9 * (KWH_PER_MMBTU / 1e6)) / kwhPerUnit(fuel);
    out.set(state, {
      published: {
        natural_gas: unitsOf('natural_gas') / heating.natural_gas,
        electricity: unitsOf('electricity') / t.all,
        fuel_oil: unitsOf('fuel_oil') / heating.fuel_oil,
        propane: unitsOf('propane') / heating.propane,
      },
      shares: Object.fromEntries(FUELS.map((f) => [f, heating[f] / t.all])) as Record<Fuel, number>,
    });
  }
  return out;
}

const RECS_FUEL: Readonly<Record<Fuel, string>> = {
  natural_gas: 'natural_gas',
  electricity: 'electricity',
  fuel_oil: 'fuel_oil_kerosene',
  propane: 'propane',
};
const RECS_HEATING: Readonly<Record<Fuel, string>> = {
  natural_gas: 'Natural gas',
  electricity: 'Electricity',
  fuel_oil: 'Fuel oil or kerosene',
  propane: 'Propane',
};
/** The other main heating fuels RECS counts households of (their use of a fuel is taken out of its total). */
const OTHER_HEATING = ['Wood', 'Does not use heating equipment'];

/**
 * EIA RECS 2020 per census division. A fuel's consumption per household heating with it is not tabulated by
 * division, so it is derived: the division's total of the fuel (CE2.1) less what its households heating with
 * something else burn of it (HC6.7/HC6.8 households × the national use of the fuel per household heating with
 * that other fuel, CE2.1), over the households heating with the fuel. Electricity: the division's total over
 * all its households (the households heating otherwise use too much of it, and too unevenly, to take out).
 * Nationally, CE2.1's own figure per household heating with the fuel. Null where RECS withholds a number.
 */
async function recsPerHousehold(): Promise<{
  divisions: Map<string, { published: Record<Fuel, number | null>; shares: Record<Fuel, number> }>;
  national: Record<Fuel, number | null>;
}> {
  const ce = await csvFile(path.join(DATA, 'recs-2020-ce2.1-consumption.csv'));
  const hc = await csvFile(path.join(DATA, 'recs-2020-hc6.7-hc6.8-main-heating-fuel.csv'));
  const num = (text: string | undefined) =>
    text === undefined || !/^[\d.]+$/.test(text) ? null : Number(text);
  /** A total in the fuel's compared unit (gas: its Btu as therms; the others: as EIA counts them). */
  const totalOf = (row: Record<string, string> | undefined, fuel: Fuel): number | null => {
    if (!row) return null;
    if (fuel === 'natural_gas') {
      const tbtu = num(row.total_trillion_btu);
      return tbtu === null ? null : (tbtu * 1e12) / 1e5;
    }
    const total = num(row.total);
    return total === null ? null : total * (fuel === 'electricity' ? 1e9 : 1e6);
  };
  const ceRow = (grouping: string, category: string, fuel: Fuel) =>
    ce.find((r) => r.grouping === grouping && r.category === category && r.fuel === RECS_FUEL[fuel]);
  const households = (area: string, heating: string) =>
    num(hc.find((r) => r.area === area && r.main_heating_fuel === heating)?.housing_units_million);
  /** National use of `fuel` per household heating with `heating` (CE2.1's main-heating-fuel rows). */
  const nationalUse = (heating: string, fuel: Fuel): number | null => {
    const row = ceRow('Main heating fuel', heating, fuel);
    const total = totalOf(row, fuel);
    const units = num(row?.housing_units_million);
    return total === null || units === null ? null : total / (units * 1e6);
  };
  const divisions = new Map<
    string,
    { published: Record<Fuel, number | null>; shares: Record<Fuel, number> }
  >();
  for (const division of Object.keys(DIVISIONS)) {
    const all = households(division, 'All homes')!;
    const published = {} as Record<Fuel, number | null>;
    const shares = {} as Record<Fuel, number>;
    for (const fuel of FUELS) {
      const own = households(division, RECS_HEATING[fuel]);
      shares[fuel] = own === null ? 0 : own / all;
      const total = totalOf(ceRow('Census region and division', division, fuel), fuel);
      if (total === null || own === null) {
        published[fuel] = null;
        continue;
      }
      if (fuel === 'electricity') {
        published[fuel] = total / (all * 1e6);
        continue;
      }
      const others = [...FUELS.filter((f) => f !== fuel).map((f) => RECS_HEATING[f]), ...OTHER_HEATING];
      const elsewhere = others.reduce((sum, heating) => {
        const n = households(division, heating);
        const use = nationalUse(heating, fuel);
        return n === null || use === null ? sum : sum + n * 1e6 * use;
      }, 0);
      const derived = (total - elsewhere) / (own * 1e6);
      published[fuel] = derived > 0 ? derived : null;
    }
    divisions.set(division, { published, shares });
  }
  const national = Object.fromEntries(
    FUELS.map((fuel) => [fuel, nationalUse(RECS_HEATING[fuel], fuel)]),
  ) as Record<Fuel, number | null>;
  return { divisions, national };
}

/**
 * A place's model means next to its published figures (the lake's statistics are in therm, kWh and gallons
 * already): each fuel's heating households, electricity of all households.
 */
const fuelPairs = (
  place: Place,
  published: Record<Fuel, number | null>,
  shares: Record<Fuel, number>,
): Record<Fuel, Pair> =>
  Object.fromEntries(
    FUELS.map((fuel): [Fuel, Pair] => {
      const all = fuel === 'electricity';
      return [
        fuel,
        {
          model: modelMean(place, fuel, all),
          published: published[fuel],
          heatingShare: all ? 1 : shares[fuel],
        },
      ];
    }),
  ) as Record<Fuel, Pair>;

async function figuresOf(session: SqlSession, lakeDir: string): Promise<RemCalibrationFigures> {
  const { createdAt, remSamples } = await snapshotOrigin(session, lakeDir);
  const places = await modelPlaces(session);
  const seds = await sedsPerHousehold();
  const recs = await recsPerHousehold();
  const hddOf = (place: Place) => place.hddSum / place.hddWeight;
  const states = [...seds.keys()].sort().flatMap((state) => {
    const place = places.get(state);
    if (!place) return [];
    const { published, shares } = seds.get(state)!;
    const fuels = fuelPairs(place, published, shares);
    return [{ state, hdd: hddOf(place), fuels }];
  });
  const divisions = Object.keys(DIVISIONS).map((division) => {
    const place = places.get(division)!;
    const { published, shares } = recs.divisions.get(division)!;
    const fuels = fuelPairs(place, published, shares);
    return { division, hdd: hddOf(place), fuels };
  });
  const nation = places.get('US')!;
  const national = Object.fromEntries(
    FUELS.map((fuel) => [
      fuel,
      { model: modelMean(nation, fuel, false), published: recs.national[fuel], heatingShare: 1 },
    ]),
  ) as RemCalibrationFigures['national'];
  return {
    snapshot: session.snapshotId,
    createdAt,
    remSamples,
    states,
    divisions,
    national,
  };
}

runLakeFiguresCommand('rem-calibration', 'figures:rem', figuresOf);
