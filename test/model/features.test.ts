import { describe, expect, it } from 'vitest';
import { END_USES, FUELS, UPGRADES, type Fuel, type Home } from '../../schemas/rem.ts';
import { climateById } from '../../model/climate/climate.ts';
import {
  FEATURE_NAMES,
  FEATURE_RANGES,
  SIMULATION_OUTPUTS,
  SIMULATION_OUTPUT_STRIDE,
  SIMULATOR_VERSION,
  encodeBatch,
  encodeFeatures,
  simulateBatch,
} from '../../model/features.ts';
import { STATE_CLIMATES } from '../../model/parameters/locations.ts';
import { sampleStateHomes } from '../../model/sampler/sample-homes.ts';
import { simulateHome } from '../../model/simulator.ts';
import { applyUpgrade } from '../../model/upgrades/apply-upgrade.ts';
import { electricSlabHome, gasHeatedHome } from './homes.ts';

const chicago = climateById('chicago-il');
const atlanta = climateById('atlanta-ga');
const column = (name: string): number => FEATURE_NAMES.indexOf(name);

function encode(home: Home, climate = chicago): Float32Array {
  const out = new Float32Array(FEATURE_NAMES.length);
  encodeFeatures(home, climate, out, 0);
  return out;
}

describe('feature encoding', () => {
  it('names each feature once and gives each a range', () => {
    expect(new Set(FEATURE_NAMES).size).toBe(FEATURE_NAMES.length);
    expect(Object.keys(FEATURE_RANGES)).toEqual([...FEATURE_NAMES]);
    for (const name of FEATURE_NAMES)
      expect(FEATURE_RANGES[name]!.min).toBeLessThan(FEATURE_RANGES[name]!.max);
  });

  it('writes exactly its features at the offset and nothing around them', () => {
    const out = new Float32Array(FEATURE_NAMES.length + 4).fill(-7);
    encodeFeatures(gasHeatedHome(), chicago, out, 2);
    expect([out[0], out[1], out.at(-2), out.at(-1)]).toEqual([-7, -7, -7, -7]);
    expect(Array.from(out.subarray(2, 2 + FEATURE_NAMES.length))).toEqual(
      Array.from(encode(gasHeatedHome())),
    );
  });

  it('encodes raw values, climate summaries and one-hot categories', () => {
    const x = encode(gasHeatedHome());
    expect(x[column('hdd65')]).toBe(6200);
    expect(x[column('heating_design_temp_f')]).toBe(-3);
    expect(x[column('floor_area_ft2')]).toBe(2000);
    expect(x[column('infiltration_ach50')]).toBe(12);
    expect(x[column('climate_zone_temp')]).toBe(5);
    expect(x[column('heating_fuel_natural_gas')]).toBe(1);
    expect(x[column('heating_fuel_electricity')]).toBe(0);
    expect(x[column('foundation_heated_basement')]).toBe(1);
    expect(x[column('has_natural_gas_appliance')]).toBe(1);
    expect(x[column('has_propane_appliance')]).toBe(0);
    const prefixes = [
      'building_type_',
      'foundation_',
      'attic_',
      'duct_location_',
      'heating_fuel_',
      'heating_type_',
    ];
    for (const prefix of [
      ...prefixes,
      'cooling_type_',
      'water_heater_fuel_',
      'water_heater_type_',
      'dryer_fuel_',
    ]) {
      const hot = FEATURE_NAMES.filter((n) => n.startsWith(prefix) && !n.endsWith('_r')).map(
        (n) => x[column(n)]!,
      );
      expect(
        hot.reduce((s, v) => s + v, 0),
        prefix,
      ).toBe(1);
    }
  });

  it('encodes a home without a heat pump with retention 1 and COPs equal to its AFUE, like the reference', () => {
    const x = encode(gasHeatedHome());
    expect(x[column('capacity_retention_17f')]).toBe(1);
    expect(x[column('cop_5f')]).toBeCloseTo(0.8, 6);
    expect(x[column('heat_pump_capacity_kbtu_h')]).toBe(0);
  });

  it('encodes an upgraded heat pump with its curve and its sized capacity', () => {
    const result = applyUpgrade(gasHeatedHome(), 'hvac__heat_pump_seer18_hspf10');
    if (!result.applicable) throw new Error(result.reason);
    const x = encode(result.home);
    expect(x[column('heat_pump_hspf')]).toBe(10);
    expect(x[column('heat_pump_sizing_hers')]).toBe(1);
    expect(x[column('capacity_retention_5f')]).toBeCloseTo(0.47, 6);
    // HERS sizing: the larger of the design loads.
    expect(x[column('heat_pump_capacity_kbtu_h')]).toBeCloseTo(
      Math.max(x[column('design_heating_load_kbtu_h')]!, x[column('design_cooling_load_kbtu_h')]!),
      3,
    );
  });

  it("keeps every feature inside its declared range over the sampler's support and every upgrade", () => {
    const out = new Float32Array(FEATURE_NAMES.length);
    const outside: string[] = [];
    let encoded = 0;
    for (const state of Object.keys(STATE_CLIMATES)) {
      for (const fuel of FUELS) {
        const result = sampleStateHomes(state, { heatingFuel: fuel }, 8, 31);
        if (!result.supported) continue;
        for (const { home, climate } of result.samples) {
          for (const upgrade of UPGRADES) {
            const upgraded = applyUpgrade(home, upgrade);
            if (!upgraded.applicable) continue;
            encodeFeatures(upgraded.home, climate, out, 0);
            encoded++;
            FEATURE_NAMES.forEach((name, k) => {
              const { min, max } = FEATURE_RANGES[name]!;
              if (out[k]! < Math.fround(min) || out[k]! > Math.fround(max)) {
                outside.push(`${name} = ${out[k]} (${state}, ${fuel}, ${upgrade})`);
              }
            });
          }
        }
      }
    }
    expect(outside).toEqual([]);
    expect(encoded).toBeGreaterThan(5_000);
  });

  it('encodes a batch row by row', () => {
    const homes = [gasHeatedHome(), electricSlabHome()];
    const batch = encodeBatch(homes, [chicago, atlanta]);
    expect(batch).toHaveLength(2 * FEATURE_NAMES.length);
    expect(Array.from(batch.subarray(FEATURE_NAMES.length))).toEqual(Array.from(encode(homes[1]!, atlanta)));
  });
});

describe('simulateBatch', () => {
  it('returns the four fuels then the six end uses, matching simulateHome', () => {
    expect(SIMULATION_OUTPUTS).toEqual([...FUELS, ...END_USES]);
    const homes = [gasHeatedHome(), electricSlabHome()];
    const climates = [chicago, atlanta];
    const out = simulateBatch(homes, climates);
    expect(out).toHaveLength(2 * SIMULATION_OUTPUT_STRIDE);
    homes.forEach((home, i) => {
      const expected = simulateHome(home, climates[i]!);
      const row = out.subarray(i * SIMULATION_OUTPUT_STRIDE, (i + 1) * SIMULATION_OUTPUT_STRIDE);
      FUELS.forEach((fuel: Fuel, f) => expect(row[f]).toBeCloseTo(expected.byFuel[fuel], 6));
      END_USES.forEach((endUse, e) => {
        const total = FUELS.reduce((s, fuel) => s + expected.byEndUse[endUse][fuel], 0);
        expect(row[FUELS.length + e]).toBeCloseTo(total, 6);
      });
      const fuels = row.subarray(0, FUELS.length).reduce((s, v) => s + v, 0);
      const endUses = row.subarray(FUELS.length).reduce((s, v) => s + v, 0);
      expect(fuels).toBeCloseTo(endUses, 6);
    });
  });

  it('refuses arrays that are not parallel', () => {
    expect(() => simulateBatch([gasHeatedHome()], [])).toThrow(RangeError);
    expect(() => encodeBatch([gasHeatedHome()], [chicago, atlanta])).toThrow(RangeError);
  });

  it('names the simulator version the training data comes from', () => {
    expect(SIMULATOR_VERSION).toMatch(/^rem-physics-\d+\.\d+\.\d+$/);
  });
});
