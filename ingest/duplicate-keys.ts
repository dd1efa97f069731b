import { isDeepStrictEqual } from 'node:util';
import type { SourceRecord } from './source.ts';

/** Keys of one record schema that more than one record of a source version carries, in one file. */
export interface DuplicateKeys {
  schema: string;
  /** The file the records came from, relative to the source's location; absent for a single-file source. */
  file?: string;
  /** How many keys are repeated. */
  keys: number;
  /** The first few of them, in the order the parser emitted them. */
  examples: string[];
  /** For records that differ: the payload fields in which the first example's records differ. */
  differingFields?: string[];
}

export interface KeyCheck {
  /** The records with exact repeats (same key, same payload) dropped, the first of each kept. */
  records: SourceRecord[];
  /** Keys repeated with the same payload each time: collapsed to one record, and reported. */
  collapsed: DuplicateKeys[];
  /** Keys repeated with different payloads: the version cannot be staged, since staging keeps one per key. */
  conflicting: DuplicateKeys[];
}

const EXAMPLES = 5;

/**
 * Checks that every record of a source version has its own key within its record schema. Staging keeps one
 * record per key, so a repeated key would otherwise lose records without a word; an exact repeat loses
 * nothing and is collapsed.
 */
export function checkKeys(records: readonly SourceRecord[]): KeyCheck {
  const firstOf = new Map<string, SourceRecord>();
  const kept: SourceRecord[] = [];
  const collapsed = new Map<string, DuplicateKeys & { seen: Set<string> }>();
  const conflicting = new Map<string, DuplicateKeys & { seen: Set<string> }>();
  for (const record of records) {
    const id = `${record.schema}\u0000${record.key}`;
    const first = firstOf.get(id);
    if (first === undefined) {
      firstOf.set(id, record);
      kept.push(record);
      continue;
    }
    const same = isDeepStrictEqual(first.payload, record.payload);
    const groups = same ? collapsed : conflicting;
    const groupId = `${record.schema}\u0000${record.file ?? ''}`;
    let group = groups.get(groupId);
    if (group === undefined) {
      group = {
        schema: record.schema,
        ...(record.file === undefined ? {} : { file: record.file }),
        keys: 0,
        examples: [],
        ...(same ? {} : { differingFields: differingFields(first.payload, record.payload) }),
        seen: new Set(),
      };
      groups.set(groupId, group);
    }
    if (group.seen.has(record.key)) continue;
    group.seen.add(record.key);
    group.keys++;
    if (group.examples.length < EXAMPLES) group.examples.push(record.key);
  }
  const plain = (groups: Map<string, DuplicateKeys & { seen: Set<string> }>) =>
    [...groups.values()].map(({ seen: _seen, ...group }) => group);
  return { records: kept, collapsed: plain(collapsed), conflicting: plain(conflicting) };
}

/** Top-level fields whose values differ (the whole payload, "(payload)", when either is not an object). */
function differingFields(a: unknown, b: unknown): string[] {
  if (!isPlainObject(a) || !isPlainObject(b)) return ['(payload)'];
  const fields = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...fields].filter((field) => !isDeepStrictEqual(a[field], b[field])).sort();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** "50 keys … in data/MA/incentives.json: MA/a, MA/b, … and 45 more", for messages. */
export function describeDuplicateKeys(group: DuplicateKeys, location: string): string {
  const more = group.keys - group.examples.length;
  const where = group.file === undefined || group.file === '' ? location : group.file;
  return (
    `${group.keys} key${group.keys === 1 ? '' : 's'} of ${group.schema} in ${where}: ` +
    `${group.examples.join(', ')}${more > 0 ? ` and ${more} more` : ''}`
  );
}
