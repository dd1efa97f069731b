import type { RecordSchema } from '../record-schema.ts';
import { healthRecordSchemas } from '../health-data.ts';
import { incentivesRecordSchemas } from '../incentives/records.ts';
import { remRecordSchemas } from '../rem-data.ts';

/** Every record schema that travels on the event log; transform validates each payload with its entry. */
export const recordSchemas: RecordSchema[] = [
  ...incentivesRecordSchemas,
  ...remRecordSchemas,
  ...healthRecordSchemas,
];
