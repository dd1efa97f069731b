import type { GridRegionRow } from '../../schemas/rem-data.ts';

/**
 * Long-run figures of the Cambium regions the fixtures' counties lie in, round and shaped like the real ones
 * (rem_grid_regions: a long-run CO2e rate below today's average, fossil and coal shares that fall), not data.
 */
const region = (grid_region: string, lrmer: number, fossil: number, coal: number | null): GridRegionRow => ({
  grid_region,
  lrmer_co2e_kg_per_mwh: lrmer,
  lrmer_heating_season_co2e_kg_per_mwh: lrmer * 1.1,
  fossil_share_ratio: fossil,
  coal_share_ratio: coal,
  first_year: 2025,
  start_year: 2027,
  years: 15,
  discount_rate: 0.03,
});

export const FIXTURE_GRID_REGIONS: GridRegionRow[] = [
  region('ISONE', 150, 0.6, null),
  region('SPP_South', 200, 0.35, 0.2),
  region('WestConnect_South', 180, 0.4, 0.25),
  region('MISO_North', 210, 0.5, 0.25),
  region('ERCOT', 170, 0.45, 0.15),
];

/** The Cambium region of each fixture county (NREL ReEDS 2024, as ingest/default-data/rem has them). */
export const FIXTURE_COUNTY_GRID_REGIONS: Readonly<Record<string, string>> = {
  '04013': 'WestConnect_South',
  '25025': 'ISONE',
  '27137': 'MISO_North',
  '44007': 'ISONE',
  '48113': 'ERCOT',
  '48303': 'SPP_South',
};

/** A fixture county's Cambium region (an unknown county is a mistake in the spec). */
export function fixtureGridRegion(countyFips: string): string {
  const region = FIXTURE_COUNTY_GRID_REGIONS[countyFips];
  if (!region) throw new Error(`no fixture grid region for county ${countyFips}`);
  return region;
}
