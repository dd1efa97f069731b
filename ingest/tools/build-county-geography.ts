import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseCsv } from 'csv-parse/sync';
import { REPOSITORY_ROOT } from '../../lib/repository-root.ts';
import { countyGeographySchema, type CountyGeography } from '../../schemas/health-data.ts';

// npx tsx ingest/tools/build-county-geography.ts --gazetteer <2023_Gaz_counties_national.txt>
//   [--households <CSV>] [--out <CSV>]
// Rebuilds ingest/default-data/health/county-population-area.csv (see SOURCES.md there): each county's
// population (ACS 2019–2023) and land area (Census 2023 Gazetteer, ALAND in m²).

const { values } = parseArgs({
  options: {
    gazetteer: { type: 'string' },
    households: {
      type: 'string',
      default: path.join(
        REPOSITORY_ROOT,
        '../shared/model-data/households/county-households-acs-2019-2023.csv',
      ),
    },
    out: {
      type: 'string',
      default: path.join(REPOSITORY_ROOT, 'ingest/default-data/health/county-population-area.csv'),
    },
  },
});
if (!values.gazetteer) throw new Error('--gazetteer <the Census 2023 Gazetteer counties file> is required');

type Row = Record<string, string>;
// The Gazetteer is tab-separated with blanks after every line's last field.
const gazetteer = parseCsv(await readFile(values.gazetteer), {
  columns: (header: string[]) => header.map((h) => h.trim()),
  delimiter: '\t',
  trim: true,
  skip_empty_lines: true,
}) as Row[];
const landM2 = new Map(gazetteer.map((r) => [r.GEOID!, Number(r.ALAND)]));
const households = parseCsv(await readFile(values.households), { columns: true, trim: true }) as Row[];

const rows: CountyGeography[] = households.map((r) => {
  const land = landM2.get(r.county_fips!);
  if (land === undefined) throw new Error(`county ${r.county_fips} is not in the Gazetteer`);
  return countyGeographySchema.parse({
    county_fips: r.county_fips,
    population: Number(r.population),
    // m² → km², to the hectare.
    land_area_km2: Math.round(land / 1e4) / 100,
  });
});
rows.sort((a, b) => (a.county_fips < b.county_fips ? -1 : 1));
const lines = rows.map((r) => `${r.county_fips},${r.population},${r.land_area_km2}`);
await writeFile(values.out, ['county_fips,population,land_area_km2', ...lines].join('\n') + '\n');
console.log(`${rows.length} counties written to ${values.out}`);
