import type { z } from 'zod';

/**
 * The zod schema and version of one kind of source record; transform validates payloads with it. Tables
 * name the records they read by these objects (`inputs.records`, `ctx.records(schema)`), which type the rows.
 */
export interface RecordSchema<T extends z.ZodType = z.ZodType> {
  name: string;
  version: number;
  schema: T;
  /** The topic its records travel on (without the Kafka prefix). */
  topic: string;
}

/** A record schema on its own topic, named like it. */
export const recordSchema = <T extends z.ZodType>(name: string, schema: T, version = 1): RecordSchema<T> => ({
  name,
  version,
  schema,
  topic: name,
});

/** The payload a record schema accepts. */
export type RecordOf<R> = R extends RecordSchema<infer S> ? z.output<S> : never;

/** The names of a set of record schemas, by the same keys (what parsers stamp on the records they make). */
export const recordNames = <K extends string>(
  schemas: Readonly<Record<K, RecordSchema>>,
): Readonly<Record<K, string>> =>
  Object.fromEntries(Object.entries<RecordSchema>(schemas).map(([key, s]) => [key, s.name])) as Record<
    K,
    string
  >;
