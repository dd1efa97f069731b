import { describe, expect, it } from 'vitest';
import type { EmissionFactor, GridGeneration, LrmerProfile } from '../../../../schemas/rem-data.ts';
import {
  LONG_RUN,
  gridEmissionFactors,
  gridRegionRows,
  levelizedShareRatio,
} from '../../../../transform/tables/rem/long-run-grid.ts';
import { auditGridEmissionFactors } from '../../../../transform/tables/rem/grid-tables.ts';
import { FIXTURE_GRID_REGIONS } from '../../../support/grid-fixture.ts';

/** A model year of a region: total generation 100, `coal` and `gas` (combined cycle) of it. */
const year = (grid_region: string, y: number, coal: number, gas: number): GridGeneration => ({
  grid_region,
  year: y,
  generation_mwh: 100,
  coal_mwh: coal,
  gas_cc_mwh: gas,
  gas_ct_mwh: 0,
  o_g_s_mwh: 0,
});

/** Discounted mean of one value per year from LONG_RUN.startYear, as Cambium levelizes. */
const levelized = (values: readonly number[]) => {
  const weights = values.map((_, i) => (1 + LONG_RUN.discountRate) ** -i);
  return values.reduce((sum, v, i) => sum + v * weights[i]!, 0) / weights.reduce((a, b) => a + b, 0);
};

describe('levelizedShareRatio', () => {
  it("averages the share over 2027–2041 at 3 %, between model years linearly, over the first year's share", () => {
    expect(LONG_RUN).toEqual({ startYear: 2027, years: 15, discountRate: 0.03 });
    // Fossil share 0.5 in 2025 and 0.25 from 2030 on: 0.4, 0.35, 0.3 in 2027–2029, then 0.25 for 12 years.
    const rows = [year('R', 2025, 30, 20), ...[2030, 2035, 2040, 2045].map((y) => year('R', y, 5, 20))];
    const fossil = (r: GridGeneration) => r.coal_mwh + r.gas_cc_mwh;
    const expected = levelized([0.4, 0.35, 0.3, ...Array<number>(12).fill(0.25)]) / 0.5;
    expect(levelizedShareRatio(rows, fossil)).toBeCloseTo(expected, 12);
    // Coal: 0.3 in 2025, 0.05 from 2030.
    const coal = levelized([0.2, 0.15, 0.1, ...Array<number>(12).fill(0.05)]) / 0.3;
    expect(levelizedShareRatio(rows, (r) => r.coal_mwh)).toBeCloseTo(coal, 12);
  });

  it('is null for a share that is nothing in the first year (no coal to follow)', () => {
    const rows = [2025, 2030, 2035, 2040, 2045].map((y) => year('R', y, 0, 40));
    expect(levelizedShareRatio(rows, (r) => r.coal_mwh)).toBeNull();
  });
});

describe('gridRegionRows', () => {
  const month = (grid_region: string, m: number, rate: number): LrmerProfile => ({
    grid_region,
    month: m,
    hourly_kg_per_mwh: Array<number>(24).fill(rate),
  });
  const profiles = Array.from({ length: 12 }, (_, i) => month('R', i + 1, i < 6 ? 100 : 200));
  const generation = [2025, 2030, 2035, 2040, 2045].map((y) => year('R', y, 10, 40));

  it("takes the mean of the year's hours, each month's day counted as many times as it has days", () => {
    const [row] = gridRegionRows(profiles, generation);
    // January–June (181 days) at 100, July–December (184 days) at 200.
    expect(row!.lrmer_co2e_kg_per_mwh).toBeCloseTo((181 * 100 + 184 * 200) / 365, 12);
    // November–March: 151 days, 90 of them (January–March) at 100.
    expect(row!.lrmer_heating_season_co2e_kg_per_mwh).toBeCloseTo((90 * 100 + 61 * 200) / 151, 12);
    expect(row).toMatchObject({
      grid_region: 'R',
      fossil_share_ratio: 1,
      coal_share_ratio: 1,
      first_year: 2025,
      start_year: 2027,
      years: 15,
      discount_rate: 0.03,
    });
  });

  it('names a region missing a month or its generation', () => {
    expect(() => gridRegionRows(profiles.slice(1), generation)).toThrow(
      'grid region R: the LRMER profiles cover 11 months, not 12',
    );
    expect(() => gridRegionRows(profiles, [])).toThrow('grid region R: no projected generation');
  });
});

describe('gridEmissionFactors', () => {
  const electricity = (
    region: string,
    pollutant: EmissionFactor['pollutant'],
    value: number,
  ): EmissionFactor => ({
    region,
    fuel: 'electricity',
    pollutant,
    value,
    unit: 'kg/kWh',
    basis: 'average',
    year: 2023,
    publisher: `eGRID ${region}`,
  });
  const factors = [
    electricity('RI', 'co2e', 0.28),
    electricity('RI', 'nox', 0.0001),
    electricity('RI', 'so2', 0.00004),
    electricity('TX', 'co2e', 0.4),
    electricity('TX', 'so2', 0.0004),
    electricity('US', 'pm25', 0.00002),
  ];
  const rows = gridEmissionFactors(
    [
      { state: 'RI', grid_region: 'ISONE' },
      { state: 'RI', grid_region: 'ISONE' },
      { state: 'TX', grid_region: 'SPP_South' },
    ],
    FIXTURE_GRID_REGIONS,
    factors,
  );
  const valueOf = (state: string, basis: string, pollutant: string) =>
    rows.find((r) => r.region === state && r.grid_emissions === basis && r.pollutant === pollutant)?.value;

  it("keeps today's rate as the current basis, the state's own or else the nation's", () => {
    expect(valueOf('RI', 'current_average', 'co2e')).toBe(0.28);
    expect(valueOf('TX', 'current_average', 'pm25')).toBe(0.00002);
    expect(rows.find((r) => r.region === 'TX' && r.pollutant === 'pm25')).toMatchObject({
      basis: 'average',
      method: "today's rate of the US as the emission-factor table has it",
    });
  });

  it("takes the region's LRMER for CO2e, and carries the other rates along its fossil or coal share", () => {
    // ISONE 150 kg/MWh, fossil share ratio 0.6 and no coal; SPP South 200, fossil 0.35, coal 0.2.
    expect(valueOf('RI', 'long_run', 'co2e')).toBeCloseTo(0.15, 15);
    expect(valueOf('TX', 'long_run', 'co2e')).toBeCloseTo(0.2, 15);
    expect(valueOf('RI', 'long_run', 'nox')).toBeCloseTo(0.0001 * 0.6, 15);
    expect(valueOf('RI', 'long_run', 'so2')).toBeCloseTo(0.00004 * 0.6, 15);
    expect(valueOf('TX', 'long_run', 'so2')).toBeCloseTo(0.0004 * 0.2, 15);
    expect(valueOf('TX', 'long_run', 'pm25')).toBeCloseTo(0.00002 * 0.35, 15);
    const co2e = rows.find(
      (r) => r.region === 'RI' && r.grid_emissions === 'long_run' && r.pollutant === 'co2e',
    );
    expect(co2e).toMatchObject({
      basis: 'long_run_marginal',
      grid_region: 'ISONE',
      unit: 'kg/kWh',
      year: 2027,
    });
  });

  it('makes each state and region once, and nothing of a pollutant today has no rate of', () => {
    // Rhode Island: CO2e, NOx and SO2 of its own and the nation's PM2.5, on both bases.
    expect(rows.filter((r) => r.region === 'RI')).toHaveLength(4 * 2);
    expect(valueOf('TX', 'long_run', 'nox')).toBeUndefined();
    expect(() =>
      gridEmissionFactors([{ state: 'RI', grid_region: 'NYISO' }], FIXTURE_GRID_REGIONS, factors),
    ).toThrow('no long-run figures for grid region NYISO (counties of RI)');
  });

  it('passes the audit when every county has CO2e on both bases, and names a pair that has not', () => {
    const counties = [
      { state: 'RI', grid_region: 'ISONE' },
      { state: 'TX', grid_region: 'SPP_South' },
    ];
    const findings = auditGridEmissionFactors(rows, counties);
    // No VOC rate anywhere and no NOx of Texas, on either basis: those tonnes count as zero, a warning.
    expect(findings).toEqual([
      expect.objectContaining({
        check: 'health_pollutants',
        severity: 'warning',
        examples: [
          'RI/ISONE long_run voc',
          'RI/ISONE current_average voc',
          'TX/SPP_South long_run nox',
          'TX/SPP_South long_run voc',
          'TX/SPP_South current_average nox',
          'TX/SPP_South current_average voc',
        ],
      }),
    ]);
    const withoutCo2e = rows.filter(
      (r) => !(r.region === 'RI' && r.pollutant === 'co2e' && r.grid_emissions === 'long_run'),
    );
    expect(auditGridEmissionFactors(withoutCo2e, counties)[0]).toMatchObject({
      check: 'co2e_for_every_county',
      severity: 'error',
      examples: ['RI/ISONE long_run co2e'],
    });
  });
});
