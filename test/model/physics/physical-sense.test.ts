import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { remCountyProfilesParser } from '../../../ingest/parsers/rem-county-profiles.ts';
import { REPOSITORY_ROOT } from '../../../lib/repository-root.ts';
import type { CountyProfile } from '../../../schemas/rem-data.ts';
import { FUELS, type Fuel, type Upgrade } from '../../../schemas/rem.ts';
import { sampleHomes } from '../../../model/sampler/sample-homes.ts';
import { samplingCountyOf } from '../../../model/sampler/sampling-county.ts';
import { simulateHome } from '../../../model/simulator.ts';
import { kwhToMmbtu } from '../../../model/units.ts';
import { applyUpgrade } from '../../../model/upgrades/apply-upgrade.ts';
import { stationOf } from '../../../transform/tables/rem/rem-tables.ts';

/*
 * Physical sense of the county-level model, checked on a handful of typical clusters of the default county
 * table (sampler + simulator, 300 homes each) against public figures (cited in model/README.md):
 * - EIA RECS 2020 (Today in Energy, "Midwest homes, notably older homes, consume more natural gas than most
 *   other U.S. homes"): households using natural gas used 76.1 MMBtu of it in the Midwest, 56.6 nationally.
 * - EIA RECS 2020 end-use release (press, 2023): gas space heating 72.7 MMBtu per Michigan household heating
 *   with gas, 50.9 in Kansas.
 * - EIA FAQ "How much electricity does an American home use?": 14,407 kWh per Louisiana residential
 *   customer in 2020.
 * These averages include apartments and homes that use a fuel for less than heating; the clusters here are
 * single-family and mobile homes heated with that fuel, so the bands sit at or above 1.
 */

const HOMES = 300;
const SEED = 2020;
const fossil = (kwh: Record<Fuel, number>) => kwh.natural_gas + kwh.fuel_oil + kwh.propane;

let counties: Map<string, CountyProfile>;
beforeAll(async () => {
  const text = readFileSync(path.join(REPOSITORY_ROOT, 'ingest/default-data/rem/counties.csv'));
  const records = await remCountyProfilesParser.parse({
    location: '',
    read: async () => text,
    filesRead: () => [],
  });
  counties = new Map(records.map((r) => [r.key, r.payload as CountyProfile]));
});

interface ClusterResult {
  /** Mean baseline site energy per fuel, and of heating (all fuels), MMBtu. */
  baseline: Record<Fuel, number> & { heating: number };
  /** Mean change of each upgrade over the homes it applies to, MMBtu: total and fossil. */
  delta: (upgrade: Upgrade) => { total: number; fossil: number; worstHomeFossil: number };
}

function cluster(countyFips: string, heatingFuel: Fuel): ClusterResult {
  const profile = counties.get(countyFips)!;
  const county = samplingCountyOf({ ...profile, station_id: stationOf(profile) });
  const result = sampleHomes(county, { heatingFuel }, HOMES, SEED);
  if (!result.supported) throw new Error(result.message);
  const runs = result.samples.map(({ home, climate }) => ({
    home,
    climate,
    base: simulateHome(home, climate),
  }));
  const baseline = { electricity: 0, natural_gas: 0, fuel_oil: 0, propane: 0, heating: 0 };
  for (const { base } of runs) {
    for (const fuel of FUELS) baseline[fuel] += kwhToMmbtu(base.byFuel[fuel]) / runs.length;
    baseline.heating += kwhToMmbtu(FUELS.reduce((s, f) => s + base.byEndUse.heating[f], 0)) / runs.length;
  }
  return {
    baseline,
    delta(upgrade) {
      let total = 0;
      let fossilSum = 0;
      let worstHomeFossil = -Infinity;
      let n = 0;
      for (const { home, climate, base } of runs) {
        const upgraded = applyUpgrade(home, upgrade);
        if (!upgraded.applicable) continue;
        const after = simulateHome(upgraded.home, climate);
        const fossilDelta = kwhToMmbtu(fossil(after.byFuel) - fossil(base.byFuel));
        total += kwhToMmbtu(after.totalKwh - base.totalKwh);
        fossilSum += fossilDelta;
        worstHomeFossil = Math.max(worstHomeFossil, fossilDelta);
        n++;
      }
      return { total: total / n, fossil: fossilSum / n, worstHomeFossil };
    },
  };
}

const ratio = (model: number, published: number) => model / published;

describe('baseline consumption of typical clusters against EIA figures', () => {
  it('puts gas-heated Midwestern clusters at 1.0–1.4× the RECS 2020 Midwest gas household (76.1 MMBtu)', () => {
    for (const fips of ['26163', '17031']) {
      // Wayne County, MI and Cook County, IL.
      expect(ratio(cluster(fips, 'natural_gas').baseline.natural_gas, 76.1), fips).toBeGreaterThan(1.0);
      expect(ratio(cluster(fips, 'natural_gas').baseline.natural_gas, 76.1), fips).toBeLessThan(1.4);
    }
  });

  it('puts gas space heating at 0.9–1.5× the RECS 2020 state figure (Michigan 72.7, Kansas 50.9 MMBtu)', () => {
    const michigan = cluster('26163', 'natural_gas').baseline.heating;
    const kansas = cluster('20173', 'natural_gas').baseline.heating; // Sedgwick County (Wichita)
    expect(ratio(michigan, 72.7)).toBeGreaterThan(0.9);
    expect(ratio(michigan, 72.7)).toBeLessThan(1.5);
    expect(ratio(kansas, 50.9)).toBeGreaterThan(0.9);
    expect(ratio(kansas, 50.9)).toBeLessThan(1.5);
  });

  it('puts electric-heated Louisiana homes at 1.0–1.4× the EIA per-customer figure (14,407 kWh)', () => {
    const kwh = cluster('22033', 'electricity').baseline.electricity / kwhToMmbtu(1); // East Baton Rouge
    expect(ratio(kwh, 14_407)).toBeGreaterThan(1.0);
    expect(ratio(kwh, 14_407)).toBeLessThan(1.4);
  });
});

describe('upgrades and climate, cluster by cluster', () => {
  const fossilClusters: [string, Fuel][] = [
    ['26163', 'natural_gas'], // Wayne, MI
    ['13121', 'natural_gas'], // Fulton, GA
    ['06037', 'natural_gas'], // Los Angeles, CA
    ['25027', 'fuel_oil'], // Worcester, MA
    ['50007', 'propane'], // Chittenden, VT
  ];
  const heatPumps: Upgrade[] = [
    'hvac__heat_pump_seer15_hspf9',
    'hvac__heat_pump_seer18_hspf10',
    'hvac__heat_pump_seer24_hspf13',
  ];

  it('has every heat pump save fossil energy in every fossil-heated cluster, and raise it in no home', () => {
    for (const [fips, fuel] of fossilClusters) {
      const result = cluster(fips, fuel);
      for (const upgrade of heatPumps) {
        const delta = result.delta(upgrade);
        expect(delta.fossil, `${fips} ${upgrade}`).toBeLessThan(-10);
        expect(delta.worstHomeFossil, `${fips} ${upgrade}`).toBeLessThanOrEqual(0);
      }
    }
  });

  it('has the SEER 24 heat pump save at least as much as the SEER 15 one in the same cluster', () => {
    for (const [fips, fuel] of [...fossilClusters, ['48201', 'electricity'] as [string, Fuel]]) {
      const result = cluster(fips, fuel);
      const seer15 = result.delta('hvac__heat_pump_seer15_hspf9').total;
      const seer24 = result.delta('hvac__heat_pump_seer24_hspf13').total;
      expect(seer24, fips).toBeLessThanOrEqual(seer15);
    }
  });

  it('gives the colder county of a state more heating energy', () => {
    const pairs = [
      ['27053', '27137'], // Hennepin (6A, Minneapolis) → St. Louis (7, Duluth), MN
      ['42101', '42049'], // Philadelphia (4A) → Erie (5A, Pittsburgh), PA
      ['48201', '48303'], // Harris (2A, Houston) → Lubbock (3B, El Paso), TX
    ];
    for (const [warmer, colder] of pairs) {
      const warm = cluster(warmer!, 'natural_gas').baseline.heating;
      const cold = cluster(colder!, 'natural_gas').baseline.heating;
      expect(cold, `${colder} vs ${warmer}`).toBeGreaterThan(1.1 * warm);
    }
  });
});
