import type { z } from 'zod';
import type { RecordSchema } from '../schemas/record-schema.ts';
import type { EventEnvelope } from '../schemas/envelope.ts';

export type Verdict =
  { status: 'accepted'; payload: unknown } | { status: 'quarantined'; reason: string; payload: unknown };

/**
 * Validates one record's payload with its registered record schema. A record that fails goes to
 * quarantine with the reason; it never stops the records around it.
 */
export function judgeRecord(envelope: EventEnvelope, schemas: ReadonlyMap<string, RecordSchema>): Verdict {
  const schema = schemas.get(envelope.schema);
  if (schema === undefined) {
    return quarantined(`record schema "${envelope.schema}" is not registered`, envelope.payload);
  }
  if (envelope.version !== schema.version) {
    return quarantined(
      `record schema "${envelope.schema}" version ${envelope.version} does not match the registered version ${schema.version}`,
      envelope.payload,
    );
  }
  const parsed = schema.schema.safeParse(envelope.payload);
  if (!parsed.success) return quarantined(describeIssues(parsed.error), envelope.payload);
  return { status: 'accepted', payload: parsed.data };
}

/** Zod issues as one line: "field.path: message; other: message". */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(record)'}: ${issue.message}`)
    .join('; ');
}

function quarantined(reason: string, payload: unknown): Verdict {
  return { status: 'quarantined', reason, payload };
}
