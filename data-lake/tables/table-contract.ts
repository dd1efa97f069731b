/**
 * What the lake promises about a table beyond its row schema, declared once with its reference: how its
 * rows are identified (the diff matches rows of two snapshots by this key) and what a plausible change
 * against the published snapshot looks like (the anomaly audits hold a run whose tables change more).
 */
export interface TableContract {
  /** The columns that identify a row, unique within a snapshot. */
  readonly key: readonly string[];
  /**
   * SQL over the table's columns naming the partition a row belongs to (its state), whose row counts the
   * audits compare one by one; absent: the table is compared as a whole.
   */
  readonly partition?: string;
  /** The largest share of a partition's rows (or the table's) that may go before the run is held. */
  readonly maxDrop: number;
  /** Columns whose share of nulls is watched: a jump (a field renamed upstream, a feed gone blank) holds. */
  readonly watchNulls?: readonly string[];
  /**
   * Numeric measures, by name, as SQL over the table's columns, whose median per partition is watched: a
   * move beyond MEASURE_FACTOR (an upstream unit error is valid JSON too) holds.
   */
  readonly measures?: Readonly<Record<string, string>>;
  /**
   * For a table whose partitions settings select (the REM states): the settings it reads and how much of a
   * partition they select (0: none; a higher level selects more of its rows), so a partition that lost rows
   * because the settings select less of it (or none) is named as such, a warning, not a hold.
   */
  readonly selectedBy?: {
    readonly settings: readonly string[];
    level(settings: Readonly<Record<string, unknown>>, partition: string): number;
  };
}

/** Rows that may go from a partition whatever its share: small partitions churn in ordinary updates. */
export const MIN_DROP_ROWS = 5;
/** A watched column's share of nulls may rise by this much (absolute) before the run is held. */
export const MAX_NULL_SHARE_RISE = 0.25;
/** A watched measure's median may move by this factor, up or down, before the run is held. */
export const MEASURE_FACTOR = 3;
/** A median is compared only over at least this many values on both sides. */
export const MIN_MEASURE_VALUES = 3;

/** Whether a state selection setting (`all` or a list of codes, schemas/config.ts) includes a state. */
export const selectionIncludes = (selection: unknown, state: string): boolean =>
  selection === 'all' || (Array.isArray(selection) && selection.includes(state));

/** The contract of a table partitioned by its `state` column. */
export const byState = (
  key: readonly string[],
  maxDrop: number,
  extra: Omit<TableContract, 'key' | 'maxDrop' | 'partition'> = {},
): TableContract => ({ key, partition: 'state', maxDrop, ...extra });

/** The contract of a table compared as a whole. */
export const whole = (key: readonly string[], maxDrop: number): TableContract => ({ key, maxDrop });
