import { STATUS_CODES } from 'node:http';
import { expect } from 'vitest';
import { z } from 'zod';

/*
 * What the fuzz specs hold every answer to, whatever the request: 2xx JSON, or 4xx in the common error
 * body, a 400 or 404 naming the field at fault.
 */

const errorBodySchema = z.strictObject({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string().min(1),
  field: z.string().min(1).optional(),
});

/**
 * Answers seen so far, by status (and field, for errors): a fuzz spec checks its generators reached the
 * answers that matter, not only one kind of 400.
 */
export type SeenAnswers = Map<string, number>;

export function checkAnswer(
  request: string,
  res: { statusCode: number; body: string; headers: Record<string, unknown> },
  seen: SeenAnswers,
): void {
  const { statusCode } = res;
  expect([2, 4], `${statusCode} for ${request}: ${res.body.slice(0, 300)}`).toContain(
    Math.floor(statusCode / 100),
  );
  expect(res.headers['content-type'], request).toMatch(/^application\/json/);
  let bucket = String(statusCode);
  if (statusCode >= 400) {
    const error = errorBodySchema.parse(JSON.parse(res.body));
    expect(error.statusCode, request).toBe(statusCode);
    expect(error.error, request).toBe(STATUS_CODES[statusCode]);
    if (statusCode === 400 || statusCode === 404)
      expect(error.field, `${request}: ${error.message}`).toBeDefined();
    bucket = `${statusCode}:${error.field}`;
  }
  seen.set(bucket, (seen.get(bucket) ?? 0) + 1);
}
