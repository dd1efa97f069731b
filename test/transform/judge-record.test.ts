import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { RecordSchema } from '../../schemas/record-schema.ts';
import type { EventEnvelope } from '../../schemas/envelope.ts';
import { judgeRecord } from '../../transform/judge-record.ts';

const program: RecordSchema = {
  name: 'program',
  version: 2,
  topic: 'programs',
  schema: z.object({ id: z.string(), amount: z.number().nonnegative(), url: z.url().optional() }),
};
const schemas = new Map([[program.name, program]]);

function envelope(payload: unknown, overrides: Partial<EventEnvelope> = {}): EventEnvelope {
  return {
    schema: 'program',
    version: 2,
    key: 'ma-heat-pump',
    source: 'incentives',
    sourceVersion: 'v1',
    producedAt: '2026-11-21T16:00:00.000Z',
    payload,
    ...overrides,
  };
}

describe('judgeRecord', () => {
  it('accepts a valid payload as the record schema parses it', () => {
    expect(judgeRecord(envelope({ id: 'ma-heat-pump', amount: 10000, extra: true }), schemas)).toEqual({
      status: 'accepted',
      payload: { id: 'ma-heat-pump', amount: 10000 },
    });
  });

  it('quarantines an invalid payload with every zod issue and its path', () => {
    const payload = { id: 7, amount: -5, url: 'not a url' };
    expect(judgeRecord(envelope(payload), schemas)).toEqual({
      status: 'quarantined',
      reason:
        'id: Invalid input: expected string, received number; amount: Too small: expected number to be >=0; url: Invalid URL',
      payload,
    });
  });

  it('quarantines records of an unregistered schema or of another schema version', () => {
    expect(judgeRecord(envelope({}, { schema: 'rate' }), schemas)).toMatchObject({
      status: 'quarantined',
      reason: 'record schema "rate" is not registered',
    });
    expect(judgeRecord(envelope({ id: 'x', amount: 1 }, { version: 1 }), schemas)).toMatchObject({
      status: 'quarantined',
      reason: 'record schema "program" version 1 does not match the registered version 2',
    });
  });
});
