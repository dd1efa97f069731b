import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileReader } from '../../../ingest/connectors/file-reader.ts';
import { rewiringAmericaOpenDataParser } from '../../../ingest/parsers/rewiring-america-open-data.ts';
import {
  calculatorRequestExample,
  calculatorResponseExample,
} from '../../../schemas/incentives/api-examples.ts';
import { calculatorQuerySchema, calculatorResponseSchema } from '../../../schemas/incentives/api.ts';
import type { ZodApp } from '../../../serve/route-group.ts';
import { IN_PROCESS_KEY, inProcessApp } from '../../conformance/in-process-app.ts';
import {
  chromiumMissing,
  launchChromium,
  offHostRequests,
  reportMissingChromium,
} from '../../support/headless-chromium.ts';

const SAMPLE_DIR = fileURLToPath(new URL('../../../ingest/sample-data/incentives', import.meta.url));
reportMissingChromium('docs page');

/** The example answer is dated: federal credits and state programs start and end. */
const EXAMPLE_AS_OF = '2026-06-01';
const exampleUrl = `/api/v1/calculator?${new URLSearchParams(
  Object.entries(calculatorRequestExample).map(([name, value]): [string, string] => [name, String(value)]),
)}`;

// The real server (shell and incentives API) over the project's sample data, listening on a free port.
let app: ZodApp;
let origin: string;
beforeAll(async () => {
  const records = await rewiringAmericaOpenDataParser.parse(createFileReader(SAMPLE_DIR));
  app = await inProcessApp(records, { asOfDate: EXAMPLE_AS_OF });
  origin = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

const get = (url: string, key: string | null = IN_PROCESS_KEY) =>
  app.inject({ method: 'GET', url, headers: key === null ? {} : { authorization: `Bearer ${key}` } });

const spec = async () => (await get('/spec.json', null)).json();

describe('the examples the API reference shows', () => {
  it("the calculator's example answer is what the service answers to the example request", async () => {
    expect(calculatorQuerySchema.safeParse(calculatorRequestExample).success).toBe(true);
    expect(calculatorResponseSchema.parse(calculatorResponseExample)).toEqual(calculatorResponseExample);
    const response = await get(exampleUrl);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(calculatorResponseExample);
  });

  it('every calculator parameter of the example request carries its example, and the 200 its answer', async () => {
    const { paths, components } = await spec();
    const calculator = paths['/api/v1/calculator'].get;
    const examples = Object.fromEntries(
      (calculator.parameters as { name: string; example?: unknown }[])
        .filter((parameter) => parameter.example !== undefined)
        .map((parameter) => [parameter.name, parameter.example]),
    );
    expect(examples).toEqual(calculatorRequestExample);
    expect(calculator.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/APICalculatorResponse',
    });
    expect(components.schemas.APICalculatorResponse.example).toEqual(calculatorResponseExample);
  });

  it('the 400 and 404 examples are the bodies the calculator sends for those mistakes', async () => {
    const { paths } = await spec();
    const example = (status: string) =>
      paths['/api/v1/calculator'].get.responses[status].content['application/json'].schema.example;
    const household = 'owner_status=homeowner&household_income=60000';
    const tooLarge = await get(`/api/v1/calculator?zip=02903&${household}&household_size=9`);
    expect(tooLarge.statusCode).toBe(400);
    expect(example('400')).toEqual(tooLarge.json());
    const uncovered = await get(`/api/v1/calculator?zip=10001&${household}&household_size=3`);
    expect(uncovered.statusCode).toBe(404);
    expect(example('404')).toEqual(uncovered.json());
  });
});

describe('GET /docs', () => {
  it('serves the reference page and its files without a key, from this server', async () => {
    const page = await get('/docs', null);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) {
      expect(source).toMatch(/^\/docs\/static\//);
      expect((await get(source!, null)).statusCode, source).toBe(200);
    }
    expect((await get('/docs/json', null)).json()).toEqual(await spec());
  });

  it('needs no key even when one is sent wrong, and is not rate limited', async () => {
    expect((await get('/docs', 'not-a-key-0123456789')).statusCode).toBe(200);
    const page = await get('/docs', null);
    expect(page.headers['x-ratelimit-limit']).toBeUndefined();
  });
});

describe.skipIf(chromiumMissing)('the /docs page in a headless browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it("renders the calculator's parameters and 200 example, and tries the request, all from this host", async () => {
    const page = await browser.newPage();
    const offHost = offHostRequests(page, origin);
    const response = await page.goto(`${origin}/docs`);
    expect(response?.status()).toBe(200);

    await page.getByText('Authorization: Bearer <key>').waitFor();
    await page.locator('.opblock-summary-path', { hasText: /^\/api\/v1\/calculator$/ }).click();
    const calculator = page.locator('#operations-incentives-getCalculatedIncentives');
    await calculator.locator('.parameters').waitFor();
    const parameters = await calculator.locator('.parameters').innerText();
    for (const name of ['zip', 'owner_status', 'household_income', 'household_size', 'tax_filing']) {
      expect(parameters).toMatch(new RegExp(`^${name}\\b`, 'm'));
    }
    expect(parameters).toContain('Available values : homeowner, renter');
    expect(parameters).toContain('Example : 02903');

    const ok = calculator.locator('.responses-table tr.response[data-code="200"]');
    expect(JSON.parse(await ok.locator('.example').innerText())).toEqual(calculatorResponseExample);

    // Interactive: a key given to Authorize sends the example request, and the live answer is shown.
    await page.locator('.auth-wrapper .authorize').click();
    await page.locator('.modal-ux input').fill(IN_PROCESS_KEY);
    await page.locator('.modal-ux .auth-btn-wrapper .authorize').click();
    await page.locator('.modal-ux .btn-done').click();
    await calculator.locator('.try-out__btn').click();
    await calculator.locator('.execute').click();
    const live = calculator.locator('.live-responses-table .response');
    await live.waitFor();
    expect(await live.locator('.response-col_status').innerText()).toBe('200');
    expect(JSON.parse(await live.locator('.response-col_description pre').first().innerText())).toEqual(
      calculatorResponseExample,
    );
    expect(offHost).toEqual([]);
  });
});
