import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnergyRate } from '../../schemas/rem-data.ts';
import { UPGRADES } from '../../schemas/rem.ts';
import { sampleStateHomes, type SampledHome } from '../../model/sampler/sample-homes.ts';
import { evaluateHomes, type Evaluation } from '../../model/evaluate-homes.ts';
import { fuelPricesFor, kgPerKwh } from '../../model/savings/fuel-prices.ts';
import { readModelFiles } from '../../model/surrogate/committed-model.ts';
import { OnnxSurrogate } from '../../model/surrogate/onnx-surrogate.ts';
import { applyUpgrade } from '../../model/upgrades/apply-upgrade.ts';
import { KWH_PER_MMBTU, KWH_PER_THERM } from '../../model/units.ts';
import { co2eFactor } from '../support/rem-lake-fixture.ts';

const rate = (fuel: EnergyRate['fuel'], volumetric_rate: number, fixed_monthly: number): EnergyRate => ({
  state: 'RI',
  fuel,
  volumetric_rate,
  volumetric_unit: fuel === 'electricity' ? '$/kWh' : fuel === 'natural_gas' ? '$/therm' : '$/gallon',
  fixed_monthly,
  year: 2024,
  publisher: 'test fixture',
  method: 'round figures for a test',
});
const RATES = [
  rate('electricity', 0.3, 10),
  rate('natural_gas', 2, 15),
  rate('fuel_oil', 4, 0),
  rate('propane', 3.5, 0),
];
const FACTORS = [
  co2eFactor('US', 'electricity', 0.37, 'kg/kWh', 'average'),
  co2eFactor('RI', 'electricity', 0.12, 'kgCO2e/kWh', 'average'),
  co2eFactor('US', 'natural_gas', 117, 'lb/MMBtu', 'combustion'),
  co2eFactor('US', 'fuel_oil', 12.3069, 'kgCO2e/gallon', 'combustion'),
  co2eFactor('US', 'propane', 7.3776, 'kgCO2e/gallon', 'combustion'),
];

describe('fuelPricesFor', () => {
  const prices = fuelPricesFor('RI', RATES, FACTORS);

  it('takes the state rate, a year of fixed charges, and the state factor before the national one', () => {
    expect(prices.electricity).toEqual({
      unit: 'kWh',
      kwhPerUnit: 1,
      volumetric: 0.3,
      fixedAnnual: 120,
      kgCo2ePerUnit: 0.12,
    });
    expect(prices.natural_gas).toMatchObject({ unit: 'therm', volumetric: 2, fixedAnnual: 180 });
    // 117 lb/MMBtu × 0.45359237 kg/lb ÷ 10 therm/MMBtu.
    expect(prices.natural_gas.kgCo2ePerUnit).toBeCloseTo(5.30703, 5);
    expect(prices.fuel_oil.kgCo2ePerUnit).toBeCloseTo(12.3069, 10);
  });

  it('names a missing rate or factor and an unknown factor unit', () => {
    expect(() => fuelPricesFor('CT', RATES, FACTORS)).toThrow('no electricity rate for CT');
    expect(() => fuelPricesFor('RI', RATES, FACTORS.slice(0, 2))).toThrow(
      'no co2e emission factor for natural_gas in RI or the US',
    );
    expect(() => kgPerKwh({ fuel: 'natural_gas', unit: 'g/ft3', value: 1 })).toThrow(
      'emission factor unit "g/ft3" of natural_gas is not a mass per energy',
    );
    expect(kgPerKwh({ fuel: 'natural_gas', unit: 'kg/therm', value: KWH_PER_THERM })).toBeCloseTo(1, 12);
    expect(kgPerKwh({ fuel: 'electricity', unit: 'lb/MWh', value: 1000 })).toBeCloseTo(0.45359237, 12);
    expect(kgPerKwh({ fuel: 'propane', unit: 'kg/MMBtu', value: KWH_PER_MMBTU })).toBeCloseTo(1, 12);
  });
});

describe('evaluateHomes with the committed surrogate', () => {
  let surrogate: OnnxSurrogate;
  let samples: SampledHome[];
  let evaluation: Evaluation;
  beforeAll(async () => {
    surrogate = await OnnxSurrogate.load((await readModelFiles()).onnx);
    const drawn = sampleStateHomes('RI', { heatingFuel: 'natural_gas' }, 60, 44);
    if (!drawn.supported) throw new Error(drawn.message);
    samples = drawn.samples;
    evaluation = await evaluateHomes(samples, UPGRADES, surrogate, {
      cluster: {
        cluster_id: '44007|natural_gas|-',
        county_fips: '44007',
        state: 'RI',
        heating_fuel: 'natural_gas',
        water_heater_fuel: null,
      },
      prices: fuelPricesFor('RI', RATES, FACTORS),
    });
  });
  afterAll(() => surrogate.close());

  it('counts the homes each upgrade does not apply to, and runs every other upgraded home once', () => {
    const expected = Object.fromEntries(
      UPGRADES.map((u) => [
        u,
        u === 'baseline' ? 0 : samples.filter((s) => !applyUpgrade(s.home, u).applicable).length,
      ]),
    );
    expect(evaluation.excluded).toEqual(expected);
    const applicable = Object.values(expected).reduce((sum, n) => sum + (60 - n), 0) - 60;
    expect(evaluation.evaluations).toBe(60 + applicable);
    for (const row of evaluation.rows) {
      expect(row.num_samples + row.num_excluded_samples).toBe(60);
      expect(row.num_excluded_samples).toBe(expected[row.upgrade]);
    }
  });

  it('gives every upgrade that excludes no home the same baseline as the baseline itself', () => {
    const baselineOf = (upgrade: string) =>
      evaluation.rows
        .filter((r) => r.upgrade === upgrade && r.scenario === 'baseline')
        .map(({ upgrade: _, ...rest }) => rest);
    const full = UPGRADES.filter((u) => u !== 'baseline' && evaluation.excluded[u] === 0);
    expect(full.length).toBeGreaterThan(0);
    for (const upgrade of full) expect(baselineOf(upgrade)).toEqual(baselineOf('baseline'));
  });

  it('moves gas-heated homes off gas with a heat pump, and keeps the identity of means', () => {
    const gas = evaluation.rows.find(
      (r) =>
        r.upgrade === 'hvac__heat_pump_seer18_hspf10' && r.fuel === 'natural_gas' && r.scenario === 'delta',
    );
    expect(gas?.energy_mean).toBeLessThan(-100);
    for (let k = 0; k < evaluation.rows.length; k++) {
      const row = evaluation.rows[k]!;
      if (row.scenario !== 'upgrade') continue;
      const [baseline, delta] = [evaluation.rows[k - 1]!, evaluation.rows[k + 1]!];
      expect(Math.round(row.cost_mean * 1e4)).toBe(
        Math.round(baseline.cost_mean * 1e4) + Math.round(delta.cost_mean * 1e4),
      );
    }
  });
});
