import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFileReader } from '../../../ingest/connectors/file-reader.ts';
import { rewiringAmericaOpenDataParser } from '../../../ingest/parsers/rewiring-america-open-data.ts';
import type {
  LowIncomeThresholdRecord,
  PovertyLevelRecord,
  TaxBracketRecord,
} from '../../../schemas/incentives/records.ts';
import { INCENTIVE_RECORDS as R } from '../../../schemas/incentives/records.ts';
import type { ZodApp } from '../../../serve/route-group.ts';
import { IN_PROCESS_KEY, inProcessApp } from '../../conformance/in-process-app.ts';

/*
 * The calculator keeps one answer per income class: every income between the same thresholds is
 * answered with the bytes computed for the first of them. Here 13,000 seeded random incomes, with every
 * threshold of the sample data and its neighbours among them, are asked of the server with its response
 * cache and of one without any, and each answer must be byte for byte the one computed afresh.
 */

const SAMPLE_DIR = fileURLToPath(new URL('../../../ingest/sample-data/incentives', import.meta.url));
const AS_OF_DATE = '2025-01-25';

interface Case {
  name: string;
  query: string;
  incomes: number;
}
const CASES: Case[] = [
  {
    name: 'MA 02116, Eversource, 3 persons filing single',
    query: 'zip=02116&owner_status=homeowner&household_size=3&tax_filing=single&utility=ma-eversource',
    incomes: 10_000,
  },
  {
    name: 'MA 02116, Eversource and National Grid gas, 4 renters filing jointly',
    query:
      'zip=02116&owner_status=renter&household_size=4&tax_filing=joint&utility=ma-eversource' +
      '&gas_utility=ma-national-grid-gas',
    incomes: 1_000,
  },
  {
    name: 'RI 02903, Rhode Island Energy, 2 persons filing as head of household, in Spanish',
    query:
      'zip=02903&owner_status=homeowner&household_size=2&tax_filing=hoh&utility=ri-rhode-island-energy' +
      '&language=es',
    incomes: 1_000,
  },
  {
    name: 'CO 80301, Xcel, 6 persons without a filing status',
    query: 'zip=80301&owner_status=homeowner&household_size=6&utility=co-xcel-energy',
    incomes: 1_000,
  },
];

/** Massachusetts personal exemptions (Mass. DOR, Form 1, 2024): where MA's estimated tax starts. */
const MA_EXEMPTIONS = [4400, 6800, 8800];

/** Every dollar figure of the data that can be an income threshold: limits, AMI, guidelines, tax. */
function thresholdFigures(payloads: (schema: string) => unknown[]): number[] {
  const figures = new Set<number>(MA_EXEMPTIONS);
  const collect = (value: unknown): void => {
    if (typeof value === 'number') figures.add(Math.floor(value));
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect);
  };
  for (const t of payloads(R.lowIncomeThreshold) as LowIncomeThresholdRecord[]) collect(t.thresholds);
  for (const b of payloads(R.taxBracket) as TaxBracketRecord[]) {
    collect([b.income_min, b.income_max, b.standard_deduction, b.standard_deduction + (b.income_max ?? 0)]);
  }
  const percentages = (payloads(R.lowIncomeThreshold) as LowIncomeThresholdRecord[]).flatMap((t) =>
    t.type === 'fpl-percentage' ? [t.thresholds.percentage] : [],
  );
  for (const p of payloads(R.povertyLevel) as PovertyLevelRecord[]) {
    for (const level of p.levels_by_hhsize) for (const pct of percentages) collect(pct * 0.01 * level);
  }
  // AMI limits per household size (the serving table's adjusted figures).
  for (const a of payloads(R.amiZcta) as { ami_80: number; ami_150: number }[]) {
    collect([a.ami_80, a.ami_150]);
    for (const factor of [0.7, 0.8, 0.9, 1.08, 1.16, 1.24, 1.32]) {
      collect([Math.round((a.ami_80 * factor) / 50) * 50, Math.round((a.ami_150 * factor) / 50) * 50]);
    }
  }
  return [...figures].flatMap((f) => [f - 1, f, f + 1]).filter((f) => f >= 0 && f <= 100_000_000);
}

/** A seeded generator (mulberry32), so a failure names incomes that can be asked again. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let cached: ZodApp;
let uncached: ZodApp;
let thresholds: number[];
beforeAll(async () => {
  const records = await rewiringAmericaOpenDataParser.parse(createFileReader(SAMPLE_DIR));
  thresholds = thresholdFigures((schema) => records.filter((r) => r.schema === schema).map((r) => r.payload));
  cached = await inProcessApp(records, { asOfDate: AS_OF_DATE });
  uncached = await inProcessApp(records, {
    asOfDate: AS_OF_DATE,
    responseCache: { maxBytes: 0, maxEntries: 0 },
  });
}, 60_000);
afterAll(async () => {
  await cached?.close();
  await uncached?.close();
});

const get = (app: ZodApp, url: string) =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${IN_PROCESS_KEY}` } });

describe('calculator answers kept per income class', () => {
  it.each(CASES)('are byte-identical to answers computed afresh: $name', async ({ query, incomes }) => {
    const random = seededRandom(20_261_123);
    const asked = [...thresholds];
    while (asked.length < incomes) {
      const draw = random();
      // Mostly household incomes, some far above any limit.
      asked.push(Math.floor(draw < 0.9 ? random() * 400_000 : random() * 100_000_001));
    }
    const bodyOfTag = new Map<string, string>();
    const mismatched: string[] = [];
    for (const income of asked.slice(0, Math.max(incomes, thresholds.length))) {
      const url = `/api/v1/calculator?${query}&household_income=${income}`;
      const [answer, fresh] = [await get(cached, url), await get(uncached, url)];
      expect(fresh.statusCode, url).toBe(200);
      if (answer.statusCode !== 200 || !answer.rawPayload.equals(fresh.rawPayload)) mismatched.push(url);
      // A strong ETag shared by several incomes promises them the same bytes.
      const tag = answer.headers.etag as string;
      expect(fresh.headers.etag).toBe(tag);
      if (!bodyOfTag.has(tag)) bodyOfTag.set(tag, answer.body);
      else if (bodyOfTag.get(tag) !== answer.body) mismatched.push(`${url} (same ETag, other bytes)`);
    }
    expect(mismatched.slice(0, 5)).toEqual([]);
    // The answers were shared: a handful of classes, not one answer per income.
    expect(bodyOfTag.size).toBeGreaterThan(1);
    expect(bodyOfTag.size).toBeLessThan(40);
  });
});
