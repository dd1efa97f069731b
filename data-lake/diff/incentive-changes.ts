import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Amount } from '../../schemas/incentives/records.ts';
import { quoteLiteral } from '../sql-quote.ts';
import { INCENTIVE_PROGRAMS, INCENTIVES } from '../tables/incentives.ts';
import type { DiffSide } from './snapshot-diff.ts';

/** An incentive or program as the summary names it. */
export interface NamedRow {
  id: string;
  /** Its state, `US` for the federal ones. */
  state: string;
  /** Its short description (an incentive) or name (a program), in English. */
  name: string;
}

export interface AmountChange extends NamedRow {
  before: string;
  after: string;
}

/** What a data engineer reads first of an incentives update: what appeared, went, or pays another amount. */
export interface IncentiveChanges {
  incentives: { appeared: NamedRow[]; disappeared: NamedRow[]; amountChanged: AmountChange[] };
  programs: { appeared: NamedRow[]; disappeared: NamedRow[] };
}

const fileOf = (side: DiffSide, table: string): string | null => {
  const entry = side.manifest.tables[table];
  return entry === undefined ? null : `read_parquet(${quoteLiteral(path.join(side.dir, entry.file))})`;
};

/**
 * The incentives and programs of `after` against `before`, matched by id; null when either snapshot lacks
 * the tables or both files are the same.
 */
export async function incentiveChanges(
  db: DuckDBConnection,
  before: DiffSide,
  after: DiffSide,
): Promise<IncentiveChanges | null> {
  const same = (table: string) =>
    before.manifest.tables[table]?.sha256 === after.manifest.tables[table]?.sha256;
  if (same(INCENTIVES.name) && same(INCENTIVE_PROGRAMS.name)) return null;
  const [incentivesBefore, incentivesAfter] = [
    fileOf(before, INCENTIVES.name),
    fileOf(after, INCENTIVES.name),
  ];
  const [programsBefore, programsAfter] = [
    fileOf(before, INCENTIVE_PROGRAMS.name),
    fileOf(after, INCENTIVE_PROGRAMS.name),
  ];
  if (!incentivesBefore || !incentivesAfter || !programsBefore || !programsAfter) return null;
  const incentiveRows = await matchedRows(
    db,
    incentivesBefore,
    incentivesAfter,
    "json_extract_string(short_description, '$.en')",
    'CAST(amount AS VARCHAR)',
  );
  const programRows = await matchedRows(
    db,
    programsBefore,
    programsAfter,
    "json_extract_string(name, '$.en')",
    'NULL',
  );
  const named = (row: MatchedRow): NamedRow => ({ id: row.id, state: row.state, name: row.name });
  return {
    incentives: {
      appeared: incentiveRows.filter((row) => row.before === null).map(named),
      disappeared: incentiveRows.filter((row) => row.after === null).map(named),
      amountChanged: incentiveRows
        .filter((row) => row.before !== null && row.after !== null && row.before !== row.after)
        .map((row) => ({
          ...named(row),
          before: amountText(JSON.parse(row.before!) as Amount),
          after: amountText(JSON.parse(row.after!) as Amount),
        })),
    },
    programs: {
      appeared: programRows.filter((row) => row.before === null).map(named),
      disappeared: programRows.filter((row) => row.after === null).map(named),
    },
  };
}

interface MatchedRow extends NamedRow {
  /** The compared value before and after (null: the row is not in that snapshot). */
  before: string | null;
  after: string | null;
}

/** Rows of either file by id whose presence or compared value differs, by state and id. */
async function matchedRows(
  db: DuckDBConnection,
  beforeFile: string,
  afterFile: string,
  name: string,
  compared: string,
): Promise<MatchedRow[]> {
  const side = (file: string) =>
    `SELECT id, coalesce(state, 'US') AS state, ${name} AS name, coalesce(${compared}, '') AS compared FROM ${file}`;
  const reader = await db.runAndReadAll(`
    SELECT coalesce(b.id, a.id) AS id, coalesce(b.state, a.state) AS state, coalesce(b.name, a.name, '') AS name,
           a.compared AS before, b.compared AS after
    FROM (${side(beforeFile)}) a FULL OUTER JOIN (${side(afterFile)}) b ON a.id = b.id
    WHERE a.id IS NULL OR b.id IS NULL OR a.compared <> b.compared
    ORDER BY state, id`);
  return reader.getRowObjectsJS().map((row) => ({
    id: String(row.id),
    state: String(row.state),
    name: String(row.name),
    before: row.before === null ? null : String(row.before),
    after: row.after === null ? null : String(row.after),
  }));
}

const dollars = (n: number) => `$${n.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;

/** An incentive's amount as a person reads it: `$1,000`, `30 %`, `$250 per ton`, with its cap. */
export function amountText(amount: Amount): string {
  const base =
    amount.type === 'percent'
      ? `${Number((amount.number * 100).toFixed(4))} %`
      : amount.type === 'dollars_per_unit'
        ? `${dollars(amount.number)} per ${amount.unit ?? 'unit'}`
        : dollars(amount.number);
  return amount.maximum === undefined ? base : `${base} (up to ${dollars(amount.maximum)})`;
}
