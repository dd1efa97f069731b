import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileReader } from '../../../ingest/connectors/file-reader.ts';
import { rewiringAmericaOpenDataParser } from '../../../ingest/parsers/rewiring-america-open-data.ts';
import type { ZodApp } from '../../../serve/route-group.ts';
import { IN_PROCESS_KEY, inProcessApp } from '../../conformance/in-process-app.ts';

const SAMPLE_DIR = fileURLToPath(new URL('../../../ingest/sample-data/incentives', import.meta.url));
/** The date the sample was last brought up to date: the federal credits have ended by then. */
const TODAY = '2026-11-23';

let app: ZodApp;
beforeAll(async () => {
  const records = await rewiringAmericaOpenDataParser.parse(createFileReader(SAMPLE_DIR));
  app = await inProcessApp(records, { asOfDate: TODAY });
});
afterAll(() => app.close());

async function calculator(query: string): Promise<{ id: string; amount: Record<string, unknown> }[]> {
  const response = await app.inject({
    url: `/api/v1/calculator?${query}`,
    headers: { authorization: `Bearer ${IN_PROCESS_KEY}` },
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { incentives: { id: string; amount: Record<string, unknown> }[] }).incentives;
}

describe(`the sample data on ${TODAY}`, () => {
  it.each(['02116', '02903', '02901', '02814', '02807', '80301', '80516'])(
    'answers a homeowner in %s with current incentives',
    async (zip) => {
      const incentives = await calculator(
        `zip=${zip}&owner_status=homeowner&household_income=60000&household_size=3&tax_filing=single`,
      );
      expect(incentives.length).toBeGreaterThan(0);
    },
  );

  it('offers Boston the 2026 Mass Save heat pump rates, not the 2025 ones nor the ended federal credits', async () => {
    const ids = (
      await calculator(
        'zip=02116&owner_status=homeowner&household_income=60000&household_size=3&tax_filing=single&utility=ma-eversource',
      )
    ).map((i) => i.id);
    expect(ids).toEqual([
      'MA-MASSSAVE-AIR-SEALING',
      'MA-MOREV-NEW',
      'MA-MOREV-USED',
      'MA-MASSSAVE-INSULATION',
      // The whole-home rate excludes the partial-home one, and its weatherization prerequisite is offered.
      'MA-MASSSAVE-WHOLE-HOME-ASHP-2026',
      'MA-MASSSAVE-HPWH',
    ]);
  });

  it("offers Boulder Colorado's 2026–2028 heat pump credit discounts", async () => {
    const incentives = await calculator(
      'zip=80301&owner_status=homeowner&household_income=60000&household_size=3&tax_filing=single&utility=co-xcel-energy',
    );
    expect(incentives.map((i) => [i.id, i.amount])).toEqual([
      ['CO-HPTC-GROUND-2026', { type: 'dollar_amount', number: 499.95 }],
      ['CO-HPTC-AIR-2026', { type: 'dollar_amount', number: 249.98 }],
      ['CO-HPTC-WATER-HEATER-2026', { type: 'dollar_amount', number: 83.33 }],
    ]);
  });
});
