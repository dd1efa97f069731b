import type { z } from 'zod';
import { errors } from '../errors.ts';
import { languageOf, messages, type Messages } from './messages.ts';

/** The zod type a field is at heart (optional, default and refinement wrappers removed). */
function baseType(schema: z.core.$ZodType): string {
  const def = schema._zod.def as { type: string; innerType?: z.core.$ZodType };
  return def.innerType && (def.type === 'optional' || def.type === 'default' || def.type === 'nullable')
    ? baseType(def.innerType)
    : def.type;
}

/** A string that reads as a number the way the reference's validator coerces (`x == +x`, not empty). */
const numericText = (value: string) => value.trim() !== '' && !Number.isNaN(Number(value));

function coerce(value: unknown, type: string): unknown {
  if (type === 'array') return typeof value === 'string' ? [value] : value;
  // A scalar field given once as a list (`zip[]=02903`) is that value; given twice it stays a list and fails.
  const single = Array.isArray(value) && value.length === 1 ? value[0] : value;
  if (type === 'number' && typeof single === 'string' && numericText(single)) return Number(single);
  if (type === 'boolean' && (single === 'true' || single === 'false')) return single === 'true';
  return single;
}

/**
 * Coerces query values to the schema's field types with the reference's rules (a lone value is a
 * one-element list, a one-element list is a scalar, numeric text is a number, "true"/"false" are
 * booleans), so each schema is the only statement of what a parameter accepts. Unknown keys pass through
 * and are dropped by the schema, as upstream.
 */
export function coerceQuery(query: Record<string, unknown>, schema: z.ZodObject): Record<string, unknown> {
  const coerced: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.core.$ZodType>)) {
    if (query[key] !== undefined) coerced[key] = coerce(query[key], baseType(field));
  }
  return coerced;
}

const EXPECTED: Record<string, keyof Messages> = {
  object: 'object',
  int: 'integer',
  number: 'integer',
  boolean: 'boolean',
  array: 'list',
  string: 'text',
};

/** What a validation issue says, in the request's language; `given` is the value of the field at fault. */
export function describeIssue(issue: z.core.$ZodIssue, given: unknown, text: Messages): string {
  if (given === undefined && issue.code !== 'custom') return text.required;
  switch (issue.code) {
    case 'unrecognized_keys':
      return text.unknownField;
    case 'invalid_type':
      return text.mustBe(text[EXPECTED[issue.expected] ?? 'text'] as string);
    case 'invalid_value':
      return text.oneOf(issue.values);
    case 'too_small':
      if (issue.origin === 'array') return text.notEmpty;
      if (issue.origin === 'string') return issue.exact ? text.length(issue.minimum) : text.notEmpty;
      return text.atLeast(issue.minimum);
    case 'too_big':
      if (issue.origin === 'string') return text.length(issue.maximum);
      if (issue.origin === 'array') return text.atMostValues(issue.maximum);
      return text.atMost(issue.maximum);
    case 'custom':
      return issue.message === 'must not repeat a value'
        ? text.unique
        : issue.path[0] === 'zip'
          ? text.oneLocation
          : text.invalid;
    default:
      return text.invalid;
  }
}

/** The top-level field an issue is about: its path's first step, or the unknown key it reports. */
export function issueField(issue: z.core.$ZodIssue, whole: string): string {
  if (issue.code === 'unrecognized_keys') return issue.keys[0]!;
  return issue.path.length > 0 ? String(issue.path[0]) : whole;
}

/**
 * Validates a parsed query with a request schema. Failure is a 400 naming the first field at fault (its
 * message in the request's language); success gives the typed query with defaults applied.
 */
export function validateQuery<S extends z.ZodObject>(schema: S, query: Record<string, unknown>): z.infer<S> {
  const coerced = coerceQuery(query, schema);
  const result = schema.safeParse(coerced);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issueField(issue, 'query');
  const text = messages[languageOf(query)];
  throw errors.validation(field, describeIssue(issue, coerced[field], text));
}
