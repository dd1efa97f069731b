import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PipelineDefinitions } from '../../../pipeline/definitions.ts';
import { demoPriceParser, demoPriceRecordSchema } from './demo-records.ts';
import { demoPricesTable, demoRegionSummaryTable } from './demo-tables.ts';

/** The demo source's files as committed; tests copy them to a temporary directory before changing them. */
export const DEMO_DATA_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'data');

/** A definitions with the demo source at `location` (a directory holding prices.csv). */
export function demoDefinitions(location: string): PipelineDefinitions {
  return {
    parsers: [demoPriceParser],
    recordSchemas: [demoPriceRecordSchema],
    tables: [demoRegionSummaryTable, demoPricesTable],
    sources: [{ name: 'demo', kind: demoPriceParser.kind, location }],
  };
}
