import type { z } from 'zod';

/** The zod schema and version of one kind of source record; transform validates payloads with it. */
export interface RecordSchema<T extends z.ZodType = z.ZodType> {
  name: string;
  version: number;
  schema: T;
  /** The topic its records travel on (without the Kafka prefix). */
  topic: string;
}
