import { z } from 'zod';
import type { LakeTable } from '../../../transform/tables/lake-table.ts';
import { tableRef } from '../../../data-lake/tables/table-ref.ts';
import { whole } from '../../../data-lake/tables/table-contract.ts';
import { demoPriceRecordSchema } from './demo-records.ts';

const priceRow = z.object({
  item: z.string(),
  region: z.string(),
  price_usd: z.number(),
  price_cents: z.int(),
  labels: z.array(z.string()),
  note: z.string().nullable(),
});
type PriceRow = z.infer<typeof priceRow>;

/** Every accepted price, one row each, with integer cents and a JSON column for the item's words. */
export const DEMO_PRICES = tableRef('demo_prices', priceRow, {
  key: ['item', 'region'],
  partition: 'region',
  maxDrop: 0.5,
  measures: { price: 'price_usd' },
});

export const demoPricesTable: LakeTable<PriceRow> = {
  ...DEMO_PRICES,
  schemaVersion: 1,
  code: [import.meta.url],
  description: 'Appliance price quotes of the demo source',
  inputs: { records: [demoPriceRecordSchema] },
  async build(ctx) {
    const prices = await ctx.records(demoPriceRecordSchema);
    return prices.map((p) => ({
      item: p.item,
      region: p.region,
      price_usd: p.priceUsd,
      price_cents: Math.round(p.priceUsd * 100),
      labels: p.item.split('-'),
      note: p.priceUsd >= 10_000 ? 'major appliance' : null,
    }));
  },
};

const summaryRow = z.object({
  region: z.string(),
  items: z.int().positive(),
  average_price_usd: z.number(),
});
type SummaryRow = z.infer<typeof summaryRow>;

/** A price no appliance of the demo reaches: an average above it means a data error upstream. */
export const PRICE_CEILING_USD = 100_000;

/** Average price per region, read from demo_prices; its audit blocks implausible averages. */
export const demoRegionSummaryTable: LakeTable<SummaryRow> = {
  ...tableRef('demo_region_summary', summaryRow, whole(['region'], 0.5)),
  schemaVersion: 1,
  code: [import.meta.url],
  description: 'Average demo appliance price per region',
  inputs: { tables: [DEMO_PRICES] },
  async build(ctx) {
    const prices = await ctx.table(DEMO_PRICES);
    const byRegion = new Map<string, number[]>();
    for (const p of prices) {
      const list = byRegion.get(p.region) ?? [];
      list.push(p.price_usd);
      byRegion.set(p.region, list);
    }
    return [...byRegion.keys()].sort().map((region) => {
      const list = byRegion.get(region)!;
      return {
        region,
        items: list.length,
        average_price_usd: Math.round((list.reduce((a, b) => a + b, 0) / list.length) * 100) / 100,
      };
    });
  },
  audit(rows) {
    const findings = [];
    const implausible = rows.filter((r) => r.average_price_usd > PRICE_CEILING_USD);
    if (implausible.length > 0) {
      findings.push({
        table: 'demo_region_summary',
        check: 'price-ceiling',
        severity: 'error' as const,
        message: `average price above ${PRICE_CEILING_USD} USD`,
        count: implausible.length,
        examples: implausible.map((r) => `${r.region}: ${r.average_price_usd}`),
      });
    }
    const thin = rows.filter((r) => r.items < 2);
    if (thin.length > 0) {
      findings.push({
        table: 'demo_region_summary',
        check: 'thin-region',
        severity: 'warning' as const,
        message: 'regions with a single quote',
        count: thin.length,
        examples: thin.map((r) => r.region),
      });
    }
    return findings;
  },
};
