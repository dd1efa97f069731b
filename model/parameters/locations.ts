import type { ClimateZone } from '../../schemas/rem.ts';

/**
 * Where households live, climate-wise: for each contiguous state (+ DC), the share of its households in each
 * IECC climate zone and the representative station (model/climate/stations.ts) that stands for that
 * zone there. Shares are coarse (nearest 5 %), from the 2021 IECC county climate-zone list (Table R301.1)
 * weighted by ACS 2018–2022 5-year occupied housing units per county (table B25003), approx. A station may
 * stand in for a neighbouring state's zone when no station of the state itself is listed. These tables are
 * sampler parameters, like those of housing-stock.ts (see HOUSING_STOCK_VERSION there).
 */
export type ZoneShare = readonly [zone: ClimateZone, share: number, stationId: string];

export const STATE_CLIMATES: Readonly<Record<string, readonly ZoneShare[]>> = {
  AL: [
    ['3A', 0.85, 'birmingham-al'],
    ['2A', 0.15, 'new-orleans-la'],
  ],
  AZ: [
    ['2B', 0.78, 'phoenix-az'],
    ['3B', 0.12, 'las-vegas-nv'],
    ['4B', 0.05, 'albuquerque-nm'],
    ['5B', 0.05, 'denver-co'],
  ],
  AR: [
    ['3A', 0.85, 'memphis-tn'],
    ['4A', 0.15, 'nashville-tn'],
  ],
  CA: [
    ['3B', 0.44, 'los-angeles-ca'],
    ['3B', 0.25, 'sacramento-ca'],
    ['3C', 0.22, 'san-francisco-ca'],
    ['4B', 0.04, 'albuquerque-nm'],
    ['2B', 0.03, 'phoenix-az'],
    ['5B', 0.02, 'reno-nv'],
  ],
  CO: [
    ['5B', 0.85, 'denver-co'],
    ['6B', 0.1, 'cheyenne-wy'],
    ['4B', 0.05, 'albuquerque-nm'],
  ],
  CT: [['5A', 1, 'hartford-ct']],
  DE: [['4A', 1, 'philadelphia-pa']],
  DC: [['4A', 1, 'washington-dc']],
  FL: [
    ['2A', 0.4, 'tampa-fl'],
    ['2A', 0.38, 'jacksonville-fl'],
    ['1A', 0.22, 'miami-fl'],
  ],
  GA: [
    ['3A', 0.85, 'atlanta-ga'],
    ['2A', 0.15, 'jacksonville-fl'],
  ],
  ID: [
    ['5B', 0.8, 'boise-id'],
    ['6B', 0.2, 'helena-mt'],
  ],
  IL: [
    ['5A', 0.85, 'chicago-il'],
    ['4A', 0.15, 'st-louis-mo'],
  ],
  IN: [
    ['5A', 0.85, 'indianapolis-in'],
    ['4A', 0.15, 'louisville-ky'],
  ],
  IA: [
    ['5A', 0.7, 'des-moines-ia'],
    ['6A', 0.3, 'minneapolis-mn'],
  ],
  KS: [
    ['4A', 0.8, 'kansas-city-mo'],
    ['5A', 0.2, 'omaha-ne'],
  ],
  KY: [['4A', 1, 'louisville-ky']],
  LA: [
    ['2A', 0.9, 'new-orleans-la'],
    ['3A', 0.1, 'dallas-tx'],
  ],
  ME: [
    ['6A', 0.85, 'portland-me'],
    ['7', 0.15, 'duluth-mn'],
  ],
  MD: [
    ['4A', 0.9, 'baltimore-md'],
    ['5A', 0.1, 'pittsburgh-pa'],
  ],
  MA: [['5A', 1, 'boston-ma']],
  MI: [
    ['5A', 0.8, 'detroit-mi'],
    ['6A', 0.15, 'madison-wi'],
    ['7', 0.05, 'duluth-mn'],
  ],
  MN: [
    ['6A', 0.8, 'minneapolis-mn'],
    ['7', 0.2, 'duluth-mn'],
  ],
  MS: [
    ['3A', 0.85, 'birmingham-al'],
    ['2A', 0.15, 'new-orleans-la'],
  ],
  MO: [
    ['4A', 0.55, 'st-louis-mo'],
    ['4A', 0.35, 'kansas-city-mo'],
    ['5A', 0.1, 'des-moines-ia'],
  ],
  MT: [
    ['6B', 0.85, 'helena-mt'],
    ['5B', 0.15, 'boise-id'],
  ],
  NE: [['5A', 1, 'omaha-ne']],
  NV: [
    ['3B', 0.75, 'las-vegas-nv'],
    ['5B', 0.25, 'reno-nv'],
  ],
  NH: [
    ['6A', 0.7, 'concord-nh'],
    ['5A', 0.3, 'boston-ma'],
  ],
  NJ: [
    ['4A', 0.85, 'new-york-ny'],
    ['5A', 0.15, 'hartford-ct'],
  ],
  NM: [
    ['4B', 0.55, 'albuquerque-nm'],
    ['3B', 0.25, 'el-paso-tx'],
    ['5B', 0.2, 'denver-co'],
  ],
  NY: [
    ['4A', 0.55, 'new-york-ny'],
    ['5A', 0.35, 'albany-ny'],
    ['6A', 0.1, 'burlington-vt'],
  ],
  NC: [
    ['3A', 0.7, 'charlotte-nc'],
    ['4A', 0.3, 'richmond-va'],
  ],
  ND: [
    ['7', 0.7, 'fargo-nd'],
    ['6A', 0.3, 'sioux-falls-sd'],
  ],
  OH: [
    ['5A', 0.85, 'columbus-oh'],
    ['4A', 0.15, 'louisville-ky'],
  ],
  OK: [['3A', 1, 'oklahoma-city-ok']],
  OR: [
    ['4C', 0.75, 'portland-or'],
    ['5B', 0.25, 'boise-id'],
  ],
  PA: [
    ['5A', 0.55, 'pittsburgh-pa'],
    ['4A', 0.45, 'philadelphia-pa'],
  ],
  RI: [['5A', 1, 'providence-ri']],
  SC: [['3A', 1, 'columbia-sc']],
  SD: [
    ['6A', 0.7, 'sioux-falls-sd'],
    ['5A', 0.3, 'omaha-ne'],
  ],
  TN: [
    ['4A', 0.55, 'nashville-tn'],
    ['3A', 0.45, 'memphis-tn'],
  ],
  TX: [
    ['2A', 0.35, 'houston-tx'],
    ['2A', 0.2, 'san-antonio-tx'],
    ['3A', 0.35, 'dallas-tx'],
    ['3B', 0.07, 'el-paso-tx'],
    ['4B', 0.03, 'albuquerque-nm'],
  ],
  UT: [
    ['5B', 0.85, 'salt-lake-city-ut'],
    ['3B', 0.05, 'las-vegas-nv'],
    ['6B', 0.1, 'cheyenne-wy'],
  ],
  VT: [['6A', 1, 'burlington-vt']],
  VA: [['4A', 1, 'richmond-va']],
  WA: [
    ['4C', 0.75, 'seattle-wa'],
    ['5B', 0.25, 'spokane-wa'],
  ],
  WV: [
    ['4A', 0.6, 'louisville-ky'],
    ['5A', 0.4, 'pittsburgh-pa'],
  ],
  WI: [
    ['6A', 0.65, 'madison-wi'],
    ['5A', 0.35, 'chicago-il'],
  ],
  WY: [['6B', 1, 'cheyenne-wy']],
};
