import { beforeAll, describe, expect, it } from 'vitest';
import type {
  CountyGeography,
  DamageFactor,
  PlaceDamageFactor,
  PowerPlant,
} from '../../../schemas/health-data.ts';
import type { EmissionFactor } from '../../../schemas/rem-data.ts';
import { placeDamageFactors } from '../../../model/health/place-damage-factors.ts';
import { auditPlaceDamageFactors } from '../../../transform/tables/health/place-damage-factors-table.ts';
import { type RemCountyRow } from '../../../schemas/rem-data.ts';
import { defaultRemCounties, defaultSourceRecords } from '../../support/default-source-records.ts';

/** The place factors of the project's default sources, as the pipeline builds them. */
let counties: RemCountyRow[];
let damage: DamageFactor[];
let rows: PlaceDamageFactor[];
beforeAll(async () => {
  counties = await defaultRemCounties();
  damage = await defaultSourceRecords<DamageFactor>('damage-factors');
  rows = placeDamageFactors({
    counties,
    geography: await defaultSourceRecords<CountyGeography>('county-geography'),
    plants: await defaultSourceRecords<PowerPlant>('power-plants'),
    damageFactors: damage,
    emissionFactors: await defaultSourceRecords<EmissionFactor>('emission-factors'),
  });
});

const factor = (sector: string, place: string, pollutant: string) =>
  rows.find((r) => r.sector === sector && (r.county_fips ?? r.state) === place && r.pollutant === pollutant)!;
const national = (sector: string, pollutant: string) =>
  damage.find((f) => f.region === 'US' && f.sector === sector && f.pollutant === pollutant)!;

describe("the default sources' deaths per tonne by place", () => {
  it('price a tonne from a Manhattan home far above one from a rural Montana home, for identical emissions', () => {
    const manhattan = factor('residential_combustion', '36061', 'pm25');
    const petroleumMt = factor('residential_combustion', '30069', 'pm25');
    expect(manhattan.deaths_per_tonne).toBeGreaterThan(20 * petroleumMt.deaths_per_tonne);
    expect(manhattan.deaths_per_tonne).toBeGreaterThan(
      national('residential_combustion', 'pm25').deaths_per_tonne,
    );
    expect(petroleumMt.deaths_per_tonne).toBeLessThan(
      national('residential_combustion', 'pm25').deaths_per_tonne,
    );
    // Secondary PM2.5 forms far downwind: its spread is narrower, but Manhattan's region is still the densest.
    const manhattanNox = factor('residential_combustion', '36061', 'nox').deaths_per_tonne;
    const petroleumNox = factor('residential_combustion', '30069', 'nox').deaths_per_tonne;
    expect(manhattanNox / petroleumNox).toBeGreaterThan(5);
    expect(manhattanNox / petroleumNox).toBeLessThan(
      manhattan.deaths_per_tonne / petroleumMt.deaths_per_tonne,
    );
  });

  it('keep the low estimate in the same proportion to the central one as the national figures', () => {
    const nationalRatio =
      national('residential_combustion', 'pm25').deaths_per_tonne_low /
      national('residential_combustion', 'pm25').deaths_per_tonne;
    for (const r of rows.filter((r) => r.deaths_per_tonne > 0))
      expect(r.deaths_per_tonne_low / r.deaths_per_tonne).toBeCloseTo(nationalRatio, 9);
  });

  it('place power-plant tonnes by where each state generates: New Jersey above Wyoming', () => {
    const nj = factor('electricity_generation', 'NJ', 'so2');
    const wy = factor('electricity_generation', 'WY', 'so2');
    expect(nj.basis).toBe('state_fossil_generation');
    expect(nj.deaths_per_tonne).toBeGreaterThan(5 * wy.deaths_per_tonne);
  });

  it('pass the audit: every place has a factor, none negative, each national mean holds to 0.1 %', () => {
    expect(rows.every((r) => r.deaths_per_tonne >= 0 && r.deaths_per_tonne_low >= 0)).toBe(true);
    expect(
      new Set(rows.filter((r) => r.sector === 'residential_combustion').map((r) => r.county_fips)).size,
    ).toBe(counties.length);
    const findings = auditPlaceDamageFactors(rows, counties, damage);
    expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
    for (const sector of ['residential_combustion', 'electricity_generation']) {
      for (const pollutant of ['pm25', 'nox', 'so2']) {
        const ofKind = rows.filter((r) => r.sector === sector && r.pollutant === pollutant);
        const weight = ofKind.reduce((sum, r) => sum + r.emissions_weight, 0);
        const mean = ofKind.reduce((sum, r) => sum + r.emissions_weight * r.deaths_per_tonne, 0) / weight;
        expect(mean / national(sector, pollutant).deaths_per_tonne).toBeCloseTo(1, 9);
      }
    }
  });
});

describe('auditPlaceDamageFactors', () => {
  const us = (pollutant: 'pm25' | 'nox', central: number): DamageFactor => ({
    region: 'US',
    sector: 'residential_combustion',
    pollutant,
    deaths_per_tonne: central,
    deaths_per_tonne_low: central / 2,
    year: 2016,
    publisher: 'spec',
    method: 'spec',
  });
  const row = (
    county_fips: string,
    pollutant: 'pm25' | 'nox',
    deaths: number,
    weight: number,
  ): PlaceDamageFactor => ({
    sector: 'residential_combustion',
    state: 'RI',
    county_fips,
    pollutant,
    deaths_per_tonne: deaths,
    deaths_per_tonne_low: deaths / 2,
    exposure_index: deaths / 0.1,
    emissions_weight: weight,
    source_region: 'US',
    basis: 'county_population_exposure',
  });
  const twoCounties = [
    { county_fips: '44007', state: 'RI' },
    { county_fips: '44009', state: 'RI' },
  ];

  it('blocks a place without a factor and a spread whose mean is not the figure', () => {
    const findings = auditPlaceDamageFactors(
      [row('44007', 'pm25', 0.15, 1), row('44009', 'pm25', 0.05, 1), row('44007', 'nox', 0.003, 1)],
      twoCounties,
      [us('pm25', 0.1), us('nox', 0.002)],
    );
    expect(findings.map((f) => [f.check, f.severity, f.examples])).toEqual([
      ['every_place_has_a_factor', 'error', ['residential_combustion/44009/nox']],
      [
        'mean_is_the_figure',
        'error',
        [
          'residential_combustion/US/nox central: 0.003 vs 0.002',
          'residential_combustion/US/nox low: 0.0015 vs 0.001',
        ],
      ],
    ]);
  });
});
