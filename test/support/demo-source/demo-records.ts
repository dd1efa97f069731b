import { z } from 'zod';
import type { SourceParser, SourceRecord } from '../../../ingest/source.ts';
import type { RecordSchema } from '../../../schemas/record-schema.ts';

/** One appliance price quote of the demo source: the smallest source the pipeline can run end to end. */
export const demoPriceSchema = z.object({
  item: z.string().min(1),
  region: z.string().regex(/^[A-Z]{2}$/, 'must be a two-letter state code'),
  priceUsd: z.number().positive(),
});
export type DemoPrice = z.infer<typeof demoPriceSchema>;

export const demoPriceRecordSchema: RecordSchema<typeof demoPriceSchema> = {
  name: 'demo-price',
  version: 1,
  schema: demoPriceSchema,
  topic: 'demo-prices',
};

/**
 * Reads `prices.csv` (item,region,price_usd; no quoting). Numbers are converted when they parse; anything
 * else is passed on as text, so transform (not the parser) decides what to quarantine.
 */
export const demoPriceParser: SourceParser = {
  kind: 'demo-prices',
  recordSchemas: [demoPriceRecordSchema.name],
  async parse(reader) {
    const body = await reader.read('prices.csv');
    if (body === null) throw new Error('prices.csv is missing');
    const [header, ...lines] = body
      .toString('utf8')
      .split('\n')
      .filter((line) => line.trim() !== '');
    if (header?.trim() !== 'item,region,price_usd')
      throw new Error(`prices.csv has an unexpected header: ${header}`);
    return lines.map((line): SourceRecord => {
      const [item = '', region = '', price = ''] = line.split(',').map((cell) => cell.trim());
      const number = Number(price);
      return {
        schema: demoPriceRecordSchema.name,
        key: `${item}/${region}`,
        payload: { item, region, priceUsd: price !== '' && Number.isFinite(number) ? number : price },
      };
    });
  },
};
