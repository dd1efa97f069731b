import { STATUS_CODES } from 'node:http';
import type { ConformanceCase } from './cases.ts';
import { firstDifference, keepReferenceProperties } from './compare.ts';

/** Null when the response conforms, else why not. */
export function checkCase(testCase: ConformanceCase, status: number, bodyText: string): string | null {
  if (status !== testCase.status)
    return `status ${status}, expected ${testCase.status}: ${bodyText.slice(0, 300)}`;
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return `body is not JSON: ${bodyText.slice(0, 200)}`;
  }
  if (testCase.status >= 400) {
    const error = body as { statusCode?: unknown; error?: unknown };
    const reason = STATUS_CODES[testCase.status];
    return error.statusCode === testCase.status && error.error === reason
      ? null
      : `error body ${bodyText.slice(0, 200)}, expected statusCode ${testCase.status} and error "${reason}"`;
  }
  const actual = testCase.shape ? keepReferenceProperties(body, testCase.shape) : body;
  return firstDifference(actual, testCase.body);
}
