import { readFile } from 'node:fs/promises';
import type { SnapshotReader } from '../../data-lake/snapshot-reader.ts';

/**
 * Texts keyed by a number, read with a query over a snapshot's tables (`sql` selects columns `k`, an
 * integer, and `t`, a text). A snapshot reader hands over whole tables as rows or numeric query results:
 * for a few thousand short texts of a table too large to take as rows (the county names of the health
 * rollup), the query's texts travel as their code points, one (key, position, code point) per character.
 */
export async function readKeyedTexts(
  snapshot: SnapshotReader,
  name: string,
  sql: string,
): Promise<Map<number, string>> {
  const file = await snapshot.writeFloat64File(
    name,
    `WITH texts AS (${sql})
     SELECT k, p, unicode(substr(t, p, 1))
     FROM (SELECT k, t, unnest(range(1, length(t) + 1)) AS p FROM texts)
     ORDER BY k, p`,
  );
  const numbers = new Float64Array(file.values);
  new Uint8Array(numbers.buffer).set(await readFile(file.path));
  const codePoints = new Map<number, number[]>();
  for (let i = 0; i < numbers.length; i += 3) {
    const key = numbers[i]!;
    let text = codePoints.get(key);
    if (text === undefined) codePoints.set(key, (text = []));
    text.push(numbers[i + 2]!);
  }
  // A key whose text is empty has no characters, so no lines: it reads as absent.
  return new Map([...codePoints].map(([key, points]) => [key, String.fromCodePoint(...points)]));
}
