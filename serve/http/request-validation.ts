import type { FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';
import type { Language } from '../../schemas/incentives/enums.ts';
import { errors, type HttpError } from '../errors.ts';
import {
  languageOf,
  ruleMessage,
  validationMessages,
  type ValidationMessages,
} from './validation-messages.ts';

/*
 * The one way a request is validated, whoever does it: the server's validator compiler (for routes whose
 * schema Fastify applies) and the handlers that parse a part themselves (a query read with the
 * reference's rules, a body whose name is cached) both end in `validateRequest`, so every 400 names the
 * field at fault in the request's language with the same words, made by serve/errors.ts.
 */

/** A route's own wording for an issue (a whole message naming the field), or undefined for the common one. */
export type OwnMessage = (issue: z.core.$ZodIssue, language: Language) => string | undefined;

export interface ValidationOptions {
  /** What an issue about the whole value (no path) names as its field: "query" or "body". */
  whole: string;
  /** The language of the messages (default: the value's own `language`, read leniently). */
  language?: Language;
  ownMessage?: OwnMessage;
}

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** A schema without the wrappers that only make it optional or give it a default. */
function unwrap(schema: z.core.$ZodType): z.core.$ZodType {
  let inner = schema;
  while (WRAPPERS.has(inner._zod.def.type)) {
    inner = (inner._zod.def as unknown as { innerType: z.core.$ZodType }).innerType;
  }
  return inner;
}

/** The schema of the value at `path` in `schema` (objects and lists), or undefined when it has none. */
function schemaAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): z.core.$ZodType | undefined {
  let current = unwrap(schema);
  for (const step of path) {
    const def = current._zod.def as unknown as {
      type: string;
      shape?: Record<PropertyKey, z.core.$ZodType>;
      element?: z.core.$ZodType;
    };
    const next = def.type === 'object' ? def.shape?.[step] : def.type === 'array' ? def.element : undefined;
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
      return ruleMessage(issue.message, text) ?? text.invalid;
    default:
      return text.invalid;
  }
}

/** The 400 for the first issue of a failed validation: naming the field, in the request's language. */
function invalidRequest(
  schema: z.core.$ZodType,
  issue: z.core.$ZodIssue,
  value: unknown,
  options: ValidationOptions,
): HttpError {
  const field = issueField(issue, options.whole);
  const language = options.language ?? languageOf(value);
  const own = options.ownMessage?.(issue, language);
  if (own !== undefined) return errors.invalid(own, field);
  const text = validationMessages[language];
  return errors.validation(
    field,
    describeIssue(issue, valueOf(value, field, options.whole), text, schemaAt(schema, issue.path)),
  );
}

/** The value as its schema's output (defaults applied), or a 400 naming the first field at fault. */
export function validateRequest<S extends z.ZodType>(
  schema: S,
  value: unknown,
  options: ValidationOptions,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalidRequest(schema, result.error.issues[0]!, value, options);
}

const WHOLE_PART: Record<string, string> = { body: 'body', querystring: 'query', params: 'params' };

/**
 * The server's validator compiler: a route whose zod schema Fastify applies gets the same localized 400
 * (a validator must return its error, not throw it: Fastify turns a thrown one into a 500).
 */
export const localizedValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (value: unknown) => {
    const result = schema.safeParse(value);
    if (result.success) return { value: result.data };
    const whole = WHOLE_PART[httpPart ?? ''] ?? httpPart ?? 'request';
    return { error: invalidRequest(schema, result.error.issues[0]!, value, { whole }) };
  };

/**
 * Route options for a part its handler validates with `validateRequest` (a query parsed with the
 * reference's rules, a body named for the response cache before it is validated): the route's schema then
 * only documents the part, in /spec.json.
 */
export const validatedByHandler = { validatorCompiler: () => (value: unknown) => ({ value }) };
