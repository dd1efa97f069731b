import { z } from 'zod';

/** DuckDB column types a lake table can have; JSON holds arrays, objects and untyped values as JSON text. */
export type ColumnType = 'VARCHAR' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'JSON';

export interface Column {
  name: string;
  type: ColumnType;
  nullable: boolean;
}

export class UnsupportedColumnError extends Error {
  constructor(table: string, column: string, zodType: string) {
    super(
      `table ${table}, column ${column}: zod type "${zodType}" has no column type ` +
        '(use string, number, integer, boolean, enum, literal, array, object, record or unknown)',
    );
    this.name = 'UnsupportedColumnError';
  }
}

/** The columns of a table, in the order of its zod row object's keys. */
export function columnsOfRow(table: string, row: z.ZodType): Column[] {
  if (!(row instanceof z.ZodObject)) {
    throw new Error(`table ${table}: its row schema must be a zod object, not "${row._zod.def.type}"`);
  }
  return Object.entries(row.shape as Record<string, z.ZodType>).map(([name, field]) => {
    const { type, nullable } = columnTypeOf(field);
    if (type === undefined) throw new UnsupportedColumnError(table, name, field._zod.def.type);
    return { name, type, nullable };
  });
}

function columnTypeOf(field: z.core.$ZodType): { type: ColumnType | undefined; nullable: boolean } {
  const def = field._zod.def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
      return {
        type: columnTypeOf((field as z.core.$ZodOptional | z.core.$ZodNullable)._zod.def.innerType).type,
        nullable: true,
      };
    case 'default':
    case 'prefault':
    case 'readonly':
      return columnTypeOf(
        (field as z.core.$ZodDefault | z.core.$ZodPrefault | z.core.$ZodReadonly)._zod.def.innerType,
      );
    case 'unknown':
    case 'any':
      return { type: 'JSON', nullable: true };
    default:
      return { type: scalarTypeOf(field), nullable: false };
  }
}

// Dispatch on the definition's type name: string formats (z.iso.date(), z.email()...) are not ZodString
// instances, but all say "string".
function scalarTypeOf(field: z.core.$ZodType): ColumnType | undefined {
  const def = field._zod.def;
  switch (def.type) {
    case 'string':
    case 'enum':
      return 'VARCHAR';
    case 'number':
      return (field as unknown as z.ZodNumber).isInt ? 'BIGINT' : 'DOUBLE';
    case 'boolean':
      return 'BOOLEAN';
    case 'literal':
      return literalType((field as z.core.$ZodLiteral)._zod.def.values);
    case 'array':
    case 'object':
    case 'record':
    case 'tuple':
      return 'JSON';
    case 'union': {
      const types = new Set(
        (field as z.core.$ZodUnion)._zod.def.options.map((option) => columnTypeOf(option).type),
      );
      return types.size === 1 ? [...types][0] : undefined;
    }
    default:
      return undefined;
  }
}

function literalType(values: unknown[]): ColumnType | undefined {
  if (values.every((v) => typeof v === 'string')) return 'VARCHAR';
  if (values.every((v) => typeof v === 'boolean')) return 'BOOLEAN';
  if (values.every((v) => typeof v === 'number')) {
    return values.every((v) => Number.isInteger(v)) ? 'BIGINT' : 'DOUBLE';
  }
  return undefined;
}
