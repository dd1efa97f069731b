import { describe, expect, it } from 'vitest';
import type { ClusterStatisticRow } from '../../../schemas/rem-data.ts';
import { SplitMix64 } from '../../../model/random.ts';
import { clusterStatistics, type ClusterIdentity } from '../../../model/savings/cluster-statistics.ts';
import {
  MEAN,
  MEDIAN,
  P20,
  P80,
  SUMMARY_LENGTH,
  sortedPercentile,
  summarizeInto,
  toTenThousandths,
} from '../../../model/savings/distribution.ts';
import { KWH_PER_THERM } from '../../../model/units.ts';
import { homesKwh, ROUND_PRICES } from '../../support/round-prices.ts';

const cluster: ClusterIdentity = {
  cluster_id: '44007|natural_gas|-',
  county_fips: '44007',
  state: 'RI',
  heating_fuel: 'natural_gas',
  water_heater_fuel: null,
};

// Home A and C burn gas; B is all-electric, so a heat pump upgrade does not apply to it.
const baselineKwh = homesKwh([10_000, 600], [8_000, 0], [6_000, 400]);
const heatPumpKwh = homesKwh([14_000, 0], [0, 0], [9_000, 0]);
const rows = clusterStatistics(
  cluster,
  baselineKwh,
  [
    { upgrade: 'baseline', applicable: Uint8Array.of(1, 1, 1), kwh: baselineKwh },
    { upgrade: 'hvac__heat_pump_seer18_hspf10', applicable: Uint8Array.of(1, 0, 1), kwh: heatPumpKwh },
  ],
  ROUND_PRICES,
);
const line = (upgrade: string, fuel: string, scenario: string): ClusterStatisticRow => {
  const found = rows.find((r) => r.upgrade === upgrade && r.fuel === fuel && r.scenario === scenario);
  if (!found) throw new Error(`no line ${upgrade} ${fuel} ${scenario}`);
  return found;
};

describe('clusterStatistics (REM §5.4)', () => {
  it('gives baseline lines only for the baseline, and baseline/upgrade/delta per fuel and total otherwise', () => {
    expect(rows).toHaveLength(5 + 15);
    expect(rows.slice(5, 8).map((r) => [r.fuel, r.scenario])).toEqual([
      ['electricity', 'baseline'],
      ['electricity', 'upgrade'],
      ['electricity', 'delta'],
    ]);
    expect(rows.map((r) => r.fuel).filter((f, i, all) => all.indexOf(f) === i)).toEqual([
      'electricity',
      'natural_gas',
      'fuel_oil',
      'propane',
      'total',
    ]);
  });

  it('drops the homes an upgrade does not apply to from its baseline, upgrade and delta, and counts them', () => {
    const electricity = line('hvac__heat_pump_seer18_hspf10', 'electricity', 'baseline');
    expect(electricity).toMatchObject({ num_samples: 2, num_excluded_samples: 1, energy_unit: 'kWh' });
    // Homes A and C only: 10,000 and 6,000 kWh; linear percentiles: 6,000 + 0.2 × 4,000 = 6,800.
    expect(electricity).toMatchObject({
      energy_mean: 8000,
      energy_median: 8000,
      energy_p20: 6800,
      energy_p80: 9200,
    });
    expect(line('baseline', 'electricity', 'baseline')).toMatchObject({
      num_samples: 3,
      num_excluded_samples: 0,
      // 6,000, 8,000 and 10,000 kWh: h = 2 × 0.2 = 0.4, so 6,000 + 0.4 × 2,000.
      energy_mean: 8000,
      energy_p20: 6800,
    });
  });

  it('charges a fuel’s fixed charge only to homes that use it in the baseline, and keeps it in the upgrade', () => {
    // Gas bills of A, B, C: 1.5 × 600 + 240 = 1,140; B uses no gas, so 0 (no fixed charge); 1.5 × 400 + 240 = 840.
    expect(line('baseline', 'natural_gas', 'baseline')).toMatchObject({
      energy_unit: 'therm',
      energy_mean: 333.3333,
      cost_mean: 660,
      cost_median: 840,
      cost_p20: 336,
    });
    // After the heat pump A and C still pay the gas fixed charge (240), so the delta is the volumetric part.
    expect(line('hvac__heat_pump_seer18_hspf10', 'natural_gas', 'upgrade')).toMatchObject({
      energy_mean: 0,
      cost_mean: 240,
      cost_median: 240,
    });
    expect(line('hvac__heat_pump_seer18_hspf10', 'natural_gas', 'delta')).toMatchObject({
      energy_mean: -500,
      cost_mean: -750,
      // Deltas −900 (A) and −600 (C): −900 + 0.2 × 300 and −900 + 0.8 × 300.
      cost_p20: -840,
      cost_p80: -660,
      emissions_mean: -2500,
    });
  });

  it('sums fuels into the total: energy in kWh, emissions in kgCO2e and cost in dollars', () => {
    // Home A: 0.2 × 10,000 + 120 + 1,140 = 3,260 → 0.2 × 14,000 + 120 + 240 = 3,160; home C: 2,160 → 2,160.
    expect(line('hvac__heat_pump_seer18_hspf10', 'total', 'delta')).toMatchObject({
      energy_unit: 'kWh',
      cost_mean: -50,
      cost_median: -50,
      cost_p20: -80,
      cost_p80: -20,
      // Emissions of A: 0.4 × 10,000 + 5 × 600 = 7,000 → 5,600; of C: 4,400 → 3,600.
      emissions_mean: -1100,
    });
    const energy = line('hvac__heat_pump_seer18_hspf10', 'total', 'baseline').energy_mean;
    expect(energy).toBeCloseTo(8000 + 500 * KWH_PER_THERM, 4);
  });

  it('keeps mean(upgrade) = mean(baseline) + mean(delta) exactly at 4 decimals, on random homes', () => {
    const rng = new SplitMix64(20261123);
    for (let trial = 0; trial < 50; trial++) {
      const n = 1 + Math.floor(rng.next() * 40);
      const draw = () =>
        Float64Array.from({ length: n * 4 }, () => rng.next() * 30_000 * (rng.next() < 0.3 ? 0 : 1));
      const before = draw();
      const after = draw();
      const applicable = Uint8Array.from({ length: n }, () => +(rng.next() < 0.8));
      const random = clusterStatistics(
        cluster,
        before,
        [{ upgrade: 'water_heater__heat_pump_uef3.35', applicable, kwh: after }],
        ROUND_PRICES,
      );
      for (let k = 0; k < random.length; k += 3) {
        const [baseline, upgrade, delta] = random.slice(k, k + 3) as [
          ClusterStatisticRow,
          ClusterStatisticRow,
          ClusterStatisticRow,
        ];
        for (const metric of ['energy', 'emissions', 'cost'] as const) {
          const key = `${metric}_mean` as const;
          expect(toTenThousandths(upgrade[key])).toBe(
            toTenThousandths(baseline[key]) + toTenThousandths(delta[key]),
          );
        }
      }
    }
  });

  it('gives no lines for an upgrade that applies to no home, and refuses mismatched inputs', () => {
    const none = clusterStatistics(
      cluster,
      baselineKwh,
      [
        {
          upgrade: 'weatherization__insulation_air_duct_sealing',
          applicable: Uint8Array.of(0, 0, 0),
          kwh: baselineKwh,
        },
      ],
      ROUND_PRICES,
    );
    expect(none).toEqual([]);
    expect(() =>
      clusterStatistics(
        cluster,
        baselineKwh,
        [{ upgrade: 'baseline', applicable: Uint8Array.of(1), kwh: baselineKwh }],
        ROUND_PRICES,
      ),
    ).toThrow('baseline: 1 homes given for a cluster of 3');
  });
});

/** summarizeInto of a whole array, as an object (the statistics lines read them from a buffer). */
function summarize(values: Float64Array) {
  const out = new Float64Array(SUMMARY_LENGTH);
  summarizeInto(values, 0, values.length, out, 0);
  return { mean: out[MEAN]!, median: out[MEDIAN]!, p20: out[P20]!, p80: out[P80]! };
}

describe('summarizeInto', () => {
  it('takes numpy-style linear percentiles', () => {
    // h = 3 × 0.2 = 0.6 → 1 + 0.6 × 1; h = 3 × 0.8 = 2.4 → 3 + 0.4 × 1 (numpy.percentile gives the same).
    const { mean, median, p20, p80 } = summarize(Float64Array.from([4, 1, 3, 2]));
    expect([mean, median]).toEqual([2.5, 2.5]);
    expect(p20).toBeCloseTo(1.6, 12);
    expect(p80).toBeCloseTo(3.4, 12);
    expect(summarize(Float64Array.from([7]))).toEqual({ mean: 7, median: 7, p20: 7, p80: 7 });
  });

  it('equals the percentiles of the sorted values, for any size, ties and signs', () => {
    const rng = new SplitMix64(7);
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + Math.floor(rng.next() * 60);
      const values = Float64Array.from({ length: n }, () =>
        rng.next() < 0.3 ? 0 : Math.round((rng.next() - 0.3) * 1000) / 10,
      );
      const sorted = Float64Array.from(values).sort();
      const given = Float64Array.from(values);
      const summary = summarize(values);
      expect(values).toEqual(given);
      expect([summary.p20, summary.median, summary.p80]).toEqual([
        sortedPercentile(sorted, 0.2),
        sortedPercentile(sorted, 0.5),
        sortedPercentile(sorted, 0.8),
      ]);
    }
  });

  it('summarises a slice of the values into its place in the output, leaving the rest alone', () => {
    const values = Float64Array.from([100, 4, 1, 3, 2, -100]);
    const out = Float64Array.from({ length: 2 * SUMMARY_LENGTH }, () => 9);
    summarizeInto(values, 1, 4, out, SUMMARY_LENGTH);
    expect(Array.from(out.subarray(0, SUMMARY_LENGTH))).toEqual([9, 9, 9, 9]);
    const slice = summarize(Float64Array.from([4, 1, 3, 2]));
    expect([out[SUMMARY_LENGTH + MEAN], out[SUMMARY_LENGTH + MEDIAN]]).toEqual([slice.mean, slice.median]);
    expect([out[SUMMARY_LENGTH + P20], out[SUMMARY_LENGTH + P80]]).toEqual([slice.p20, slice.p80]);
    expect(Array.from(values)).toEqual([100, 4, 1, 3, 2, -100]);
  });

  it('refuses an empty distribution', () => {
    expect(() => summarize(new Float64Array(0))).toThrow('statistics of no values are undefined');
  });
});
