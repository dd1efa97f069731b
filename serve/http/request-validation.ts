import type { FastifySchemaCompiler, FastifySchemaValidationError, FastifyServerOptions } from 'fastify';
import { z } from 'zod';
import type { Language } from '../../schemas/incentives/enums.ts';
import { errors, type HttpError } from '../errors.ts';
import { coerceQuery, unwrap } from './query-validation.ts';
import {
  languageOf,
  ruleMessage,
  validationMessages,
  type ValidationMessages,
} from './validation-messages.ts';

/*
 * How a request is validated, every part of every route: by Fastify, against the route's zod schema
 * (schema.querystring, body, params), through the server's validator compiler (a query coerced first with
 * the reference's rules, see query-validation.ts), before any preHandler hook or the handler runs. Every
 * failure is worded by the server's schema error formatter: a 400 naming the field at fault, in the
 * request's language, made by serve/errors.ts. A route with words of its own for some issue gives its own
 * formatter (`localizedValidationError(ownMessage)`), which falls back on the common words.
 */

/**
 * A route's own wording for an issue (a whole message naming the field), or undefined for the common one;
 * `value` is the request part that failed.
 */
export type OwnMessage = (issue: z.core.$ZodIssue, language: Language, value: unknown) => string | undefined;

/** The schema of the value at `path` in `schema` (objects and lists), or undefined when it has none. */
function schemaAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType | undefined {
  let current = unwrap(schema);
  for (const step of path) {
    const next =
      current instanceof z.ZodObject
        ? (current.shape as Record<PropertyKey, z.ZodType>)[step]
        : current instanceof z.ZodArray
          ? (current.element as z.ZodType)
          : undefined;
    if (next === undefined) return undefined;
    current = unwrap(next);
  }
  return current;
}

/**
 * The request field an issue is about, as a dotted path: its object keys up to the first list index (a
 * list is one field: `items`, not `items.2`), plus the unknown key it reports; `whole` for the value itself.
 */
export function issueField(issue: z.core.$ZodIssue, whole: string): string {
  const keys: string[] = [];
  for (const step of issue.path) {
    if (typeof step !== 'string') break;
    keys.push(step);
  }
  if (issue.code === 'unrecognized_keys' && keys.length === issue.path.length) keys.push(issue.keys[0]!);
  return keys.length > 0 ? keys.join('.') : whole;
}

/** The value of a dotted field in a request part (the part itself for `whole`). */
function valueOf(value: unknown, field: string, whole: string): unknown {
  if (field === whole) return value;
  let current = value;
  for (const key of field.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

const EXPECTED: Record<string, keyof ValidationMessages> = {
  object: 'object',
  int: 'integer',
  number: 'integer',
  boolean: 'boolean',
  array: 'list',
  string: 'text',
};

/**
 * What a validation issue says, in the request's language; `given` is the value of the field at fault
 * and `schema` the schema the issue's value failed (it tells an integer from any number).
 */
export function describeIssue(
  issue: z.core.$ZodIssue,
  given: unknown,
  text: ValidationMessages,
  schema?: z.core.$ZodType,
): string {
  if (given === undefined && issue.code !== 'custom') return text.required;
  switch (issue.code) {
    case 'unrecognized_keys':
      return text.unknownField;
    case 'invalid_type': {
      const fractional = schema instanceof z.ZodNumber && !schema.isInt;
      return text.mustBe(text[fractional ? 'number' : (EXPECTED[issue.expected] ?? 'text')] as string);
    }
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
    case 'invalid_format':
      return ruleMessage(issue.message, text) ?? text.invalid;
    default:
      return text.invalid;
  }
}

/** The 400 for the first issue of a failed validation: naming the field, in the request's language. */
function invalidRequest(
  failure: ValidationFailure['params'],
  whole: string,
  ownMessage?: OwnMessage,
): HttpError {
  const { issue, value, schema } = failure;
  const field = issueField(issue, whole);
  const language = languageOf(value);
  const own = ownMessage?.(issue, language, value);
  if (own !== undefined) return errors.invalid(own, field);
  const text = validationMessages[language];
  return errors.validation(
    field,
    describeIssue(issue, valueOf(value, field, whole), text, schemaAt(schema, issue.path)),
  );
}

/** A failed validation as the validator compiler hands it to the schema error formatter: its first issue. */
interface ValidationFailure extends FastifySchemaValidationError {
  params: {
    issue: z.core.$ZodIssue;
    /** The request part as validated (a query coerced with the reference's rules). */
    value: unknown;
    schema: z.ZodType;
  };
}

/**
 * The server's validator compiler: the route's zod schema applied to a request part, a query coerced first
 * with the reference's rules (a lone value is a one-element list, numeric text a number, …). It returns
 * the part as the schema's output (defaults applied), or the first issue for the schema error formatter (a
 * validator must return its failure, not throw it: Fastify turns a thrown one into a 500).
 */
export const requestValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (part: unknown) => {
    const value =
      httpPart === 'querystring' && schema instanceof z.ZodObject
        ? coerceQuery(part as Record<string, unknown>, schema)
        : part;
    const result = schema.safeParse(value);
    if (result.success) return { value: result.data };
    const issue = result.error.issues[0]!;
    const failure: ValidationFailure = {
      keyword: issue.code,
      instancePath: issue.path.map((step) => `/${String(step)}`).join(''),
      schemaPath: '#',
      message: issue.message,
      params: { issue, value, schema },
    };
    return { error: [failure] };
  };

type SchemaErrorFormatter = NonNullable<FastifyServerOptions['schemaErrorFormatter']>;

/** What an issue about a whole request part (no path) names as its field. */
const WHOLE_PART: Record<Parameters<SchemaErrorFormatter>[1], string> = {
  body: 'body',
  querystring: 'query',
  params: 'params',
  headers: 'headers',
};

/**
 * The schema error formatter: a failed validation as the 400 the service answers with. The server's (no
 * argument) uses the common words; a route with words of its own for an issue passes them.
 */
export const localizedValidationError =
  (ownMessage?: OwnMessage): SchemaErrorFormatter =>
  (failures, dataVar) =>
    invalidRequest((failures[0] as ValidationFailure).params, WHOLE_PART[dataVar], ownMessage);
