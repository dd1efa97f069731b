import type { HealthUpgrade } from '../../schemas/health-data.ts';

/**
 * The fuel change of a household in a multi-family building (2 or more units), approximated from the county's
 * single-family homes: the REM simulates no apartments, so a multi-family household's change is a single-family
 * household's (same county, heating fuel and upgrade) times how much less energy apartments use for the end
 * uses the upgrade changes. Answers flag every row that includes such households.
 *
 * Ratios from U.S. EIA, RECS 2015 Table CE3.1 (the latest consumption table by housing type readable here; the
 * 2020 one was not): average site energy per household using the end use, million Btu, and million units.
 * Apartments' space heating includes their share of a building's central boiler as RECS estimates it.
 */
export const RECS_2015_CE3_1 = {
  single_family_detached: { units: 73.9, spaceHeating: 44.9, waterHeating: 16.1 },
  single_family_attached: { units: 7.0, spaceHeating: 34.1, waterHeating: 13.5 },
  mobile_home: { units: 6.8, spaceHeating: 22.1, waterHeating: 14.1 },
  apartments_2_to_4_units: { units: 9.4, spaceHeating: 22.2, waterHeating: 14.5 },
  apartments_5_or_more_units: { units: 21.1, spaceHeating: 9.7, waterHeating: 11.1 },
} as const;

type EndUse = 'spaceHeating' | 'waterHeating';
type HousingKind = keyof typeof RECS_2015_CE3_1;

const SINGLE_FAMILY: readonly HousingKind[] = [
  'single_family_detached',
  'single_family_attached',
  'mobile_home',
];
const MULTI_FAMILY: readonly HousingKind[] = ['apartments_2_to_4_units', 'apartments_5_or_more_units'];

/** Unit-weighted mean energy of some housing kinds for some end uses, per household. */
function meanEnergy(kinds: readonly HousingKind[], uses: readonly EndUse[]): number {
  let energy = 0;
  let units = 0;
  for (const kind of kinds) {
    const row = RECS_2015_CE3_1[kind];
    energy += row.units * uses.reduce((sum, use) => sum + row[use], 0);
    units += row.units;
  }
  return energy / units;
}

/** The end uses each upgrade changes (the all-electric package: heating, water heating and the rest). */
const END_USES: Readonly<Record<HealthUpgrade, readonly EndUse[]>> = {
  weatherization__insulation_air_duct_sealing: ['spaceHeating'],
  hvac__heat_pump_seer15_hspf9: ['spaceHeating'],
  hvac__heat_pump_seer18_hspf10: ['spaceHeating'],
  hvac__heat_pump_seer24_hspf13: ['spaceHeating'],
  'water_heater__heat_pump_uef3.35': ['waterHeating'],
  combination__hvac_seer18_hspf10__weatherization: ['spaceHeating'],
  combination__all_electric__hvac_seer24_hspf13__weatherization: ['spaceHeating', 'waterHeating'],
};

/** Multi-family ÷ single-family energy per household for the end uses the upgrade changes. */
export function multiFamilyRatio(upgrade: HealthUpgrade): number {
  const uses = END_USES[upgrade];
  return meanEnergy(MULTI_FAMILY, uses) / meanEnergy(SINGLE_FAMILY, uses);
}
