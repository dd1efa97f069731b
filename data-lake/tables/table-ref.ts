import type { z } from 'zod';

/**
 * A lake table as every stage names it: its name and its row schema, declared once under data-lake/tables/.
 * The pipeline builds a table from its reference (`{ ...REM_COUNTIES, build, … }`), a build reads its inputs
 * through references (`ctx.table(REM_COUNTIES)` gives typed rows), and serving modules load the tables they
 * need by the same references: a table renamed or reshaped is a compile error in every stage, not a 503.
 */
export interface TableRef<Row extends Record<string, unknown> = Record<string, unknown>> {
  readonly name: string;
  /** The row's zod object; every built row is validated with it. */
  readonly row: z.ZodType<Row>;
}

export const tableRef = <Row extends Record<string, unknown>>(
  name: string,
  row: z.ZodType<Row>,
): TableRef<Row> => ({ name, row });

/** The rows a reference names. */
export type RowOf<Ref> = Ref extends TableRef<infer Row> ? Row : never;
