import type { z } from 'zod';
import type { TableContract } from './table-contract.ts';

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
  /** Its key and what a plausible change of it looks like (the diff and the anomaly audits read it). */
  readonly contract: TableContract;
}

export const tableRef = <Row extends Record<string, unknown>>(
  name: string,
  row: z.ZodType<Row>,
  contract: TableContract,
): TableRef<Row> => ({ name, row, contract });

/** The rows a reference names. */
export type RowOf<Ref> = Ref extends TableRef<infer Row> ? Row : never;
