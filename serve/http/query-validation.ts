import { z } from 'zod';

/** The schemas that only make another optional or give it a default: what a field is lies inside them. */
const WRAPPERS = [
  z.ZodOptional,
  z.ZodNullable,
  z.ZodDefault,
  z.ZodPrefault,
  z.ZodReadonly,
  z.ZodCatch,
  z.ZodNonOptional,
] as const;

/** A schema without the wrappers that only make it optional or give it a default. */
export function unwrap(schema: z.ZodType): z.ZodType {
  const wrapper = WRAPPERS.find((kind) => schema instanceof kind);
  return wrapper === undefined
    ? schema
    : unwrap((schema as InstanceType<typeof wrapper>).unwrap() as z.ZodType);
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
  for (const [key, type] of fieldTypesOf(schema)) {
    if (query[key] !== undefined) coerced[key] = coerce(query[key], type);
  }
  return coerced;
}

/** Each schema's fields and their base types, worked out once: every request of a route asks again. */
const fieldTypes = new WeakMap<z.ZodObject, readonly (readonly [string, string])[]>();

function fieldTypesOf(schema: z.ZodObject): readonly (readonly [string, string])[] {
  let types = fieldTypes.get(schema);
  if (types === undefined) {
    types = Object.entries(schema.shape as Record<string, z.ZodType>).map(
      ([key, field]) => [key, unwrap(field).type] as const,
    );
    fieldTypes.set(schema, types);
  }
  return types;
}
