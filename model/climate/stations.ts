import type { ClimateStation, ClimateZone } from '../../schemas/rem.ts';

/**
 * Representative weather stations, one or more per IECC climate zone, that the synthetic weather year is
 * calibrated to. Approximate figures (rounded; verify before relying on a single value):
 * - hdd65 / cdd65: NOAA NCEI U.S. Climate Normals 1991–2020, annual heating / cooling degree days, base 65 °F,
 *   rounded to the nearest 50–100.
 * - heatingDesignF / coolingDesignF: ASHRAE Handbook—Fundamentals (2021), Ch. 14 climatic design
 *   conditions, 99 % heating dry-bulb and 1 % cooling dry-bulb, rounded to 1 °F.
 * - ghiKwhM2Day: NREL National Solar Radiation Database (NSRDB, via PVWatts), annual mean daily global
 *   horizontal irradiance, rounded to 0.1.
 * - climateZone: 2021 IECC Table R301.1 (county list) for the station's county.
 * - latitude / longitude: the station (the city's main airport, or Central Park for New York), NOAA NCEI
 *   station metadata, rounded to 0.01° (used only to pick a county's nearest station).
 */
// id, city, state, IECC zone, HDD65, CDD65, 99 % heating °F, 1 % cooling °F, GHI kWh/m²/day, latitude, longitude
type StationRow = [
  string,
  string,
  string,
  ClimateZone,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
];
const ROWS: StationRow[] = [
  ['miami-fl', 'Miami', 'FL', '1A', 130, 4600, 47, 91, 5.0, 25.79, -80.29],
  ['tampa-fl', 'Tampa', 'FL', '2A', 500, 3900, 40, 92, 5.1, 27.96, -82.54],
  ['jacksonville-fl', 'Jacksonville', 'FL', '2A', 1200, 2800, 31, 94, 4.8, 30.49, -81.69],
  ['houston-tx', 'Houston', 'TX', '2A', 1400, 3100, 31, 96, 4.6, 29.98, -95.36],
  ['san-antonio-tx', 'San Antonio', 'TX', '2A', 1500, 3300, 29, 100, 5.0, 29.53, -98.47],
  ['new-orleans-la', 'New Orleans', 'LA', '2A', 1300, 3100, 33, 94, 4.7, 29.99, -90.25],
  ['phoenix-az', 'Phoenix', 'AZ', '2B', 900, 4800, 40, 110, 5.8, 33.43, -112.01],
  ['atlanta-ga', 'Atlanta', 'GA', '3A', 2600, 1900, 22, 93, 4.6, 33.64, -84.43],
  ['charlotte-nc', 'Charlotte', 'NC', '3A', 3000, 1700, 22, 93, 4.6, 35.21, -80.94],
  ['birmingham-al', 'Birmingham', 'AL', '3A', 2600, 2100, 21, 94, 4.6, 33.56, -86.75],
  ['memphis-tn', 'Memphis', 'TN', '3A', 2900, 2300, 18, 96, 4.6, 35.04, -89.98],
  ['dallas-tx', 'Dallas', 'TX', '3A', 2100, 2800, 23, 100, 4.9, 32.9, -97.04],
  ['oklahoma-city-ok', 'Oklahoma City', 'OK', '3A', 3400, 2100, 13, 99, 5.0, 35.39, -97.6],
  ['columbia-sc', 'Columbia', 'SC', '3A', 2500, 2200, 24, 96, 4.7, 33.94, -81.12],
  ['las-vegas-nv', 'Las Vegas', 'NV', '3B', 2000, 3600, 30, 108, 5.8, 36.08, -115.15],
  ['el-paso-tx', 'El Paso', 'TX', '3B', 2300, 2400, 25, 100, 5.8, 31.81, -106.38],
  ['los-angeles-ca', 'Los Angeles', 'CA', '3B', 1200, 800, 43, 86, 5.3, 33.94, -118.41],
  ['sacramento-ca', 'Sacramento', 'CA', '3B', 2500, 1300, 32, 101, 5.2, 38.51, -121.49],
  ['san-francisco-ca', 'San Francisco', 'CA', '3C', 2700, 150, 39, 83, 4.9, 37.62, -122.37],
  ['baltimore-md', 'Baltimore', 'MD', '4A', 4500, 1300, 14, 93, 4.4, 39.17, -76.68],
  ['new-york-ny', 'New York', 'NY', '4A', 4600, 1200, 14, 91, 4.2, 40.78, -73.97],
  ['philadelphia-pa', 'Philadelphia', 'PA', '4A', 4400, 1400, 15, 93, 4.3, 39.87, -75.23],
  ['washington-dc', 'Washington', 'DC', '4A', 3900, 1700, 18, 94, 4.4, 38.85, -77.04],
  ['richmond-va', 'Richmond', 'VA', '4A', 3800, 1600, 17, 94, 4.5, 37.51, -77.32],
  ['nashville-tn', 'Nashville', 'TN', '4A', 3500, 1800, 16, 94, 4.5, 36.12, -86.68],
  ['louisville-ky', 'Louisville', 'KY', '4A', 4200, 1500, 11, 93, 4.4, 38.18, -85.73],
  ['st-louis-mo', 'St. Louis', 'MO', '4A', 4500, 1600, 7, 95, 4.6, 38.75, -90.37],
  ['kansas-city-mo', 'Kansas City', 'MO', '4A', 4900, 1400, 4, 96, 4.7, 39.3, -94.71],
  ['albuquerque-nm', 'Albuquerque', 'NM', '4B', 4100, 1300, 18, 94, 5.9, 35.04, -106.61],
  ['seattle-wa', 'Seattle', 'WA', '4C', 4500, 250, 27, 85, 3.6, 47.44, -122.31],
  ['portland-or', 'Portland', 'OR', '4C', 4300, 400, 24, 91, 3.8, 45.59, -122.6],
  ['chicago-il', 'Chicago', 'IL', '5A', 6200, 900, -3, 91, 4.2, 41.98, -87.9],
  ['boston-ma', 'Boston', 'MA', '5A', 5600, 800, 8, 90, 4.2, 42.36, -71.01],
  ['hartford-ct', 'Hartford', 'CT', '5A', 5900, 800, 3, 91, 4.1, 41.94, -72.68],
  ['providence-ri', 'Providence', 'RI', '5A', 5500, 750, 7, 89, 4.2, 41.72, -71.43],
  ['albany-ny', 'Albany', 'NY', '5A', 6500, 650, -3, 89, 4.0, 42.75, -73.8],
  ['pittsburgh-pa', 'Pittsburgh', 'PA', '5A', 5600, 800, 3, 89, 4.0, 40.49, -80.23],
  ['columbus-oh', 'Columbus', 'OH', '5A', 5400, 1000, 3, 90, 4.1, 39.99, -82.88],
  ['detroit-mi', 'Detroit', 'MI', '5A', 6200, 800, 2, 90, 4.0, 42.21, -83.35],
  ['indianapolis-in', 'Indianapolis', 'IN', '5A', 5300, 1100, 1, 91, 4.3, 39.72, -86.29],
  ['des-moines-ia', 'Des Moines', 'IA', '5A', 6300, 1100, -6, 93, 4.5, 41.53, -93.65],
  ['omaha-ne', 'Omaha', 'NE', '5A', 6100, 1200, -5, 94, 4.6, 41.3, -95.89],
  ['denver-co', 'Denver', 'CO', '5B', 5900, 800, 1, 93, 5.4, 39.86, -104.67],
  ['salt-lake-city-ut', 'Salt Lake City', 'UT', '5B', 5300, 1400, 8, 97, 5.2, 40.79, -111.97],
  ['boise-id', 'Boise', 'ID', '5B', 5400, 900, 11, 98, 5.0, 43.57, -116.22],
  ['reno-nv', 'Reno', 'NV', '5B', 5000, 600, 15, 96, 5.8, 39.48, -119.77],
  ['spokane-wa', 'Spokane', 'WA', '5B', 6600, 500, 2, 93, 4.3, 47.62, -117.53],
  ['minneapolis-mn', 'Minneapolis', 'MN', '6A', 7400, 800, -13, 91, 4.3, 44.88, -93.22],
  ['madison-wi', 'Madison', 'WI', '6A', 7000, 700, -8, 89, 4.3, 43.14, -89.35],
  ['burlington-vt', 'Burlington', 'VT', '6A', 7300, 600, -9, 88, 3.9, 44.47, -73.15],
  ['portland-me', 'Portland', 'ME', '6A', 6900, 350, -1, 86, 4.1, 43.65, -70.31],
  ['concord-nh', 'Concord', 'NH', '6A', 7000, 500, -5, 90, 4.1, 43.2, -71.5],
  ['sioux-falls-sd', 'Sioux Falls', 'SD', '6A', 7300, 800, -11, 93, 4.6, 43.58, -96.75],
  ['helena-mt', 'Helena', 'MT', '6B', 7500, 400, -13, 91, 4.7, 46.61, -111.98],
  ['cheyenne-wy', 'Cheyenne', 'WY', '6B', 7100, 400, -4, 88, 5.1, 41.16, -104.81],
  ['duluth-mn', 'Duluth', 'MN', '7', 9300, 200, -16, 84, 4.0, 46.84, -92.19],
  ['fargo-nd', 'Fargo', 'ND', '7', 8800, 600, -18, 90, 4.3, 46.92, -96.81],
];

export const CLIMATE_STATIONS: readonly ClimateStation[] = ROWS.map(
  ([
    id,
    city,
    state,
    climateZone,
    hdd65,
    cdd65,
    heatingDesignF,
    coolingDesignF,
    ghiKwhM2Day,
    latitude,
    longitude,
  ]) => ({
    id,
    city,
    state,
    climateZone,
    hdd65,
    cdd65,
    heatingDesignF,
    coolingDesignF,
    ghiKwhM2Day,
    latitude,
    longitude,
  }),
);
