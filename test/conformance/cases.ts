import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CaseKind } from '../figures/case-kinds.ts';
import { REFERENCE_SHAPES } from './compare.ts';

type QueryValue = string | number | boolean | null | Record<string, never> | (string | number)[];
type Query = Record<string, QueryValue>;

/** One request of the conformance suite and what must come back. */
export interface ConformanceCase {
  name: string;
  /** Which list of cases.json it comes from. */
  kind: CaseKind;
  url: string;
  status: number;
  /** The expected body (compared after dropping properties the reference does not define), if any. */
  body?: unknown;
  shape?: (typeof REFERENCE_SHAPES)[keyof typeof REFERENCE_SHAPES];
}

/**
 * Encodes a query as the suite's README allows: arrays comma-separated, `null` as an empty value, `{}`
 * left out.
 */
export function queryString(query: Query): string {
  return Object.entries(query)
    .flatMap(([key, value]) => {
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return [];
      const text = value === null ? '' : Array.isArray(value) ? value.join(',') : String(value);
      return [`${key}=${encodeURIComponent(text).replace(/%2C/g, ',')}`];
    })
    .join('&');
}

interface CasesFile {
  calculator: { query: Query; snapshot: string }[];
  programs: { query: Query; snapshot: string }[];
  loan: { query: Query; snapshot: string }[];
  utilities: [string, unknown][];
  bad: Query[];
  badZips: string[];
}

/** Every case of `<conformanceDir>/cases.json`, with expected bodies read from its snapshots. */
export async function loadCases(conformanceDir: string): Promise<ConformanceCase[]> {
  const file = JSON.parse(await readFile(path.join(conformanceDir, 'cases.json'), 'utf8')) as CasesFile;
  const snapshot = async (name: string) =>
    JSON.parse(await readFile(path.join(conformanceDir, 'snapshots', name), 'utf8')) as unknown;
  const withSnapshots = (kind: 'calculator' | 'programs' | 'loan', route: string) =>
    Promise.all(
      file[kind].map(async ({ query, snapshot: name }, index) => ({
        name: `${kind} #${index + 1} ${name}`,
        kind,
        url: `${route}?${queryString(query)}`,
        status: 200,
        body: await snapshot(name),
        shape: REFERENCE_SHAPES[kind],
      })),
    );
  return [
    ...(await withSnapshots('calculator', '/api/v1/calculator')),
    ...(await withSnapshots('programs', '/api/v1/incentives/programs')),
    ...(await withSnapshots('loan', '/api/v1/finance/loan-programs')),
    ...file.utilities.map(([zip, body]) => ({
      name: `utilities ${zip}`,
      kind: 'utilities' as const,
      url: `/api/v1/utilities?zip=${zip}`,
      status: 200,
      body,
      shape: REFERENCE_SHAPES.utilities,
    })),
    ...file.bad.map((query, index) => ({
      name: `bad #${index + 1} ${queryString(query)}`,
      kind: 'bad' as const,
      url: `/api/v1/calculator?${queryString(query)}`,
      status: 400,
    })),
    ...file.badZips.map((zip) => ({
      name: `badZip ${zip}`,
      kind: 'badZips' as const,
      url: `/api/v1/calculator?${queryString({ zip, owner_status: 'homeowner', household_income: 0, household_size: 1, tax_filing: 'single' })}`,
      status: 404,
    })),
  ];
}
