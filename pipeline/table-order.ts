import { inputNames, type AnyLakeTable } from '../transform/tables/lake-table.ts';

export class DefinitionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DefinitionsError';
  }
}

/** Names the pipeline adds itself, which no table may take. */
export const RESERVED_TABLE_NAMES = ['quarantine'];

const tableNamePattern = /^[a-z_][a-z0-9_]*$/;

/**
 * Orders tables so each comes after the tables it reads (ties keep definitions order, so the order is
 * stable). Refuses duplicate or malformed names, inputs that are not in the definitions and dependency cycles.
 */
export function orderTables<Table extends AnyLakeTable>(
  tables: readonly Table[],
  recordSchemas: readonly string[],
): Table[] {
  const byName = new Map<string, Table>();
  for (const table of tables) {
    if (!tableNamePattern.test(table.name)) {
      throw new DefinitionsError(`table "${table.name}": names are lower-case letters, digits and "_"`);
    }
    if (RESERVED_TABLE_NAMES.includes(table.name)) {
      throw new DefinitionsError(`table "${table.name}": the name is reserved for the pipeline's own table`);
    }
    if (byName.has(table.name)) throw new DefinitionsError(`table "${table.name}" is declared twice`);
    byName.set(table.name, table);
  }
  const knownRecords = new Set(recordSchemas);
  for (const table of tables) {
    const inputs = inputNames(table);
    for (const input of inputs.tables) {
      if (!byName.has(input)) {
        throw new DefinitionsError(
          `table "${table.name}" reads table "${input}", which is not in the definitions`,
        );
      }
    }
    for (const input of inputs.records) {
      if (!knownRecords.has(input)) {
        throw new DefinitionsError(
          `table "${table.name}" reads record schema "${input}", which is not registered`,
        );
      }
    }
  }

  const ordered: Table[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const next = tables.find(
      (t) => !placed.has(t.name) && inputNames(t).tables.every((input) => placed.has(input)),
    );
    if (next === undefined) {
      throw new DefinitionsError(
        `tables read each other in a cycle: ${findCycle(tables, placed).join(' → ')}`,
      );
    }
    ordered.push(next);
    placed.add(next.name);
  }
  return ordered;
}

/** One cycle among the tables not yet placed, as names with the first repeated at the end. */
function findCycle(tables: readonly AnyLakeTable[], placed: ReadonlySet<string>): string[] {
  const inputs = new Map(tables.map((t) => [t.name, inputNames(t).tables.filter((i) => !placed.has(i))]));
  let current = tables.find((t) => !placed.has(t.name))!.name;
  const path: string[] = [];
  while (!path.includes(current)) {
    path.push(current);
    current = inputs.get(current)![0]!;
  }
  return [...path.slice(path.indexOf(current)), current];
}
