import { describe, expect, it } from 'vitest';
import { HEALTH_UPGRADES } from '../../../schemas/health-data.ts';
import { multiFamilyRatio } from '../../../model/health/multi-family.ts';

describe('multiFamilyRatio', () => {
  // RECS 2015 CE3.1, unit-weighted: single-family and mobile homes 42.27 MMBtu of space heating and 15.74 of
  // water heating per household; apartments in 2–4 and 5+ unit buildings 13.55 and 12.15.
  it('scales space-heating upgrades by apartments’ space heating, 0.3206 of a single-family home’s', () => {
    for (const upgrade of [
      'weatherization__insulation_air_duct_sealing',
      'hvac__heat_pump_seer15_hspf9',
      'hvac__heat_pump_seer18_hspf10',
      'hvac__heat_pump_seer24_hspf13',
      'combination__hvac_seer18_hspf10__weatherization',
    ] as const)
      expect(multiFamilyRatio(upgrade)).toBeCloseTo(0.320616, 6);
  });

  it('scales the water heater by water heating (0.7719) and the all-electric package by both (0.4431)', () => {
    expect(multiFamilyRatio('water_heater__heat_pump_uef3.35')).toBeCloseTo(0.771911, 6);
    expect(multiFamilyRatio('combination__all_electric__hvac_seer24_hspf13__weatherization')).toBeCloseTo(
      0.443052,
      6,
    );
  });

  it('gives every upgrade a ratio below one', () => {
    for (const upgrade of HEALTH_UPGRADES) {
      expect(multiFamilyRatio(upgrade)).toBeGreaterThan(0);
      expect(multiFamilyRatio(upgrade)).toBeLessThan(1);
    }
  });
});
