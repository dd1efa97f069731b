import { describe, expect, it } from 'vitest';
import { healthBinDeltas } from '../../../model/health/bin-deltas.ts';
import { homesKwh, ROUND_PRICES } from '../../support/round-prices.ts';

// Two small homes (1,200 and 1,450 ft²) and one of 2,000 ft²; the heat pump does not apply to the second.
const floorAreas = [1200, 1450, 2000];
const baselineKwh = homesKwh([10_000, 600], [8_000, 500], [6_000, 400]);
const heatPumpKwh = homesKwh([14_000, 0], [0, 0], [9_000, 0]);

describe('healthBinDeltas', () => {
  const deltas = healthBinDeltas(
    floorAreas,
    baselineKwh,
    [
      { upgrade: 'baseline', applicable: Uint8Array.of(1, 1, 1), kwh: baselineKwh },
      { upgrade: 'hvac__heat_pump_seer18_hspf10', applicable: Uint8Array.of(1, 0, 1), kwh: heatPumpKwh },
    ],
    ROUND_PRICES,
  );

  it('averages each bin over all its homes, counting a home the upgrade skips as unchanged', () => {
    expect(deltas).toHaveLength(2);
    const [small, medium] = deltas;
    expect(small).toMatchObject({
      upgrade: 'hvac__heat_pump_seer18_hspf10',
      sqft_bin: '0-1499',
      sample_homes: 2,
      upgraded_homes: 1,
      delta_electricity_kwh: 2000,
      delta_fuel_oil_gallon: 0,
      delta_propane_gallon: 0,
    });
    expect(small!.delta_natural_gas_therm).toBeCloseTo(-300, 9);
    expect(medium).toMatchObject({ sqft_bin: '1500-2499', sample_homes: 1, upgraded_homes: 1 });
    expect(medium!.delta_electricity_kwh).toBe(3000);
    expect(medium!.delta_natural_gas_therm).toBeCloseTo(-400, 9);
  });

  it('has no baseline lines and no lines for empty bins', () => {
    expect(deltas.map((d) => d.upgrade)).not.toContain('baseline');
    expect(deltas.map((d) => d.sqft_bin)).toEqual(['0-1499', '1500-2499']);
  });

  it('counts a rise of a fossil fuel as predicted, like a fall, so noise either way cancels over homes', () => {
    // Two electrically heated homes whose gas water heaters the heat pump leaves alone: the surrogate
    // predicts one's gas 10 therms higher afterwards and the other's 10 therms lower.
    const electricHomes = homesKwh([12_000, 200], [11_000, 300]);
    const afterHeatPump = homesKwh([7_000, 210], [6_000, 290]);
    const upgrade = { upgrade: 'hvac__heat_pump_seer15_hspf9', applicable: Uint8Array.of(1, 1) } as const;
    const [both] = healthBinDeltas(
      [1800, 1900],
      electricHomes,
      [{ ...upgrade, kwh: afterHeatPump }],
      ROUND_PRICES,
    );
    expect(both).toMatchObject({ delta_electricity_kwh: -5000, delta_natural_gas_therm: 0 });
    const [risen] = healthBinDeltas(
      [1800],
      homesKwh([12_000, 200]),
      [{ ...upgrade, applicable: Uint8Array.of(1), kwh: homesKwh([7_000, 210]) }],
      ROUND_PRICES,
    );
    expect(risen!.delta_natural_gas_therm).toBeCloseTo(10, 9);
  });

  it('refuses energies that do not match the homes', () => {
    expect(() => healthBinDeltas([1200], baselineKwh, [], ROUND_PRICES)).toThrow(/3 homes|1 homes/);
  });
});
