import { readFile } from 'node:fs/promises';
import { HEALTH_METRICS, HEALTH_METRIC_NAMES, type HealthModel } from '../../schemas/health-api.ts';
import { HEALTH_STATEMENT } from '../../schemas/health-model.ts';
import { HEALTH_IMPACTS_TABLE, HEALTH_UPGRADES, SQFT_BINS } from '../../schemas/health-data.ts';
import type { Manifest } from '../../schemas/lake.ts';
import { CONTIGUOUS_STATE_FIPS } from '../../schemas/rem-data.ts';
import type { SnapshotReader } from '../../transform/lake/snapshot-reader.ts';
import { encodedFragment } from '../http/json-bytes.ts';
import { readKeyedTexts } from '../snapshot/text-columns.ts';

/**
 * The lake table the health-impacts route answers from: the simulate stage's rollup, declared in
 * transform/tables/health/health-impacts-table.ts (not imported: that module brings in the pipeline).
 */

/** Numbers kept per (area, upgrade, bin): households, then each metric in HEALTH_METRIC_NAMES order. */
export const MEASURES = 1 + HEALTH_METRIC_NAMES.length;
/** Bin slots per (area, upgrade): each floor-area bin, then all bins together. */
export const BIN_SLOTS = SQFT_BINS.length + 1;
export const ALL_BINS = SQFT_BINS.length;
const AREA_STRIDE = HEALTH_UPGRADES.length * BIN_SLOTS * MEASURES;

/** A state or county the answer can have rows for. */
export interface HealthArea {
  /** Two digits for a state, five for a county. */
  fips: string;
  /** The state's postal code. */
  state: string;
  /** The row's opening columns, JSON-encoded (UTF-8): `{"state_abbreviation":"..",` (and the county's two). */
  rowStart: Buffer;
}

/** The sums of the rollup cells, per area, upgrade, bin and measure (see `valueAt`). */
export interface HealthSums {
  areas: readonly HealthArea[];
  values: Float64Array;
}

/** A snapshot's health data, ready to answer from. */
export interface HealthData {
  /** The states with cells, by FIPS. */
  states: HealthSums;
  /** Every county with cells, by FIPS (so a state's counties are one run). */
  counties: HealthSums;
  stateIndex: ReadonlyMap<string, number>;
  /** Per state index: its counties' positions, [first, end). */
  countyRanges: readonly (readonly [number, number])[];
  /** 5-digit county FIPS → its position. */
  countyIndex: ReadonlyMap<string, number>;
  /** `"model":{…}`, encoded (UTF-8). */
  modelJson: Buffer;
}

/** What the health route holds per snapshot: null while the snapshot has no health table. */
export interface HealthSnapshot {
  data: HealthData | null;
}

/** Position of (area, upgrade, bin slot, measure) in a `HealthSums.values`. */
export const valueAt = (area: number, upgrade: number, binSlot: number, measure: number) =>
  area * AREA_STRIDE + (upgrade * BIN_SLOTS + binSlot) * MEASURES + measure;

const STATES = Object.keys(CONTIGUOUS_STATE_FIPS);
const sqlList = (values: readonly string[]) => `[${values.map((v) => `'${v}'`).join(', ')}]`;
const indexOf = (values: readonly string[], column: string) =>
  `list_position(${sqlList(values)}, ${column}) - 1`;

/**
 * One line per (county, state, upgrade, bin): the cells summed over heating fuels. The cells' quantized
 * values make every sum exact, so sums of these sums are too, in any order. A state outside the contiguous
 * US reads as NaN (refused below).
 */
const SUMS_SQL = `
  SELECT CAST(county_fips AS INTEGER) AS county, ${indexOf(STATES, 'state')} AS s,
    ${indexOf(HEALTH_UPGRADES, 'upgrade')} AS u, ${indexOf(SQFT_BINS, 'sqft_bin')} AS b,
    sum(households), ${HEALTH_METRIC_NAMES.map((m) => `sum(${HEALTH_METRICS[m].column})`).join(', ')}
  FROM ${HEALTH_IMPACTS_TABLE} GROUP BY ALL ORDER BY county, s, u, b`;
const SUMS_COLUMNS = 4 + MEASURES;

const NAMES_SQL = `SELECT CAST(county_fips AS INTEGER) AS k, min(county_name) AS t FROM ${HEALTH_IMPACTS_TABLE} GROUP BY k`;

const VERSION_COLUMNS = {
  code: 'code_version',
  model: 'model_version',
  emission_factors: 'factors_version',
  damage_factors: 'damage_factors_version',
} as const;
const VERSIONS_SQL = Object.values(VERSION_COLUMNS)
  .map(
    (column, k) =>
      `SELECT ${k} AS k, string_agg(DISTINCT ${column}, ', ' ORDER BY ${column}) AS t FROM ${HEALTH_IMPACTS_TABLE}`,
  )
  .join(' UNION ALL ');

const stateStart = (state: string) => `{"state_abbreviation":${JSON.stringify(state)},`;

/**
 * Loads a snapshot's health table as per-area sums. A snapshot without it (published before the rollup
 * ran) still loads, so the other routes keep serving: the health route then answers 503.
 */
export async function loadHealthSnapshot(snapshot: SnapshotReader): Promise<HealthSnapshot> {
  if (!(HEALTH_IMPACTS_TABLE in snapshot.manifest.tables)) return { data: null };
  return { data: await loadHealthData(snapshot) };
}

async function loadHealthData(snapshot: SnapshotReader): Promise<HealthData> {
  const file = await snapshot.writeFloat64File('health-county-sums', SUMS_SQL);
  const lines = new Float64Array(file.values);
  new Uint8Array(lines.buffer).set(await readFile(file.path));
  const names = await readKeyedTexts(snapshot, 'health-county-names', NAMES_SQL);
  const versions = await readKeyedTexts(snapshot, 'health-versions', VERSIONS_SQL);

  const countyAreas: HealthArea[] = [];
  const countyIndex = new Map<string, number>();
  const lineCount = lines.length / SUMS_COLUMNS;
  const counties = new Float64Array(countOfCounties(lines) * AREA_STRIDE);
  for (let line = 0; line < lineCount; line++) {
    const at = line * SUMS_COLUMNS;
    const fips = String(lines[at]).padStart(5, '0');
    const state = STATES[lines[at + 1]!];
    if (state === undefined || CONTIGUOUS_STATE_FIPS[state] !== fips.slice(0, 2)) {
      throw new Error(
        `${HEALTH_IMPACTS_TABLE}: county ${fips} has cells of state ${state ?? 'outside the contiguous US'}`,
      );
    }
    let county = countyIndex.get(fips);
    if (county === undefined) {
      county = countyAreas.length;
      countyIndex.set(fips, county);
      const name = names.get(lines[at]!) ?? '';
      countyAreas.push({
        fips,
        state,
        rowStart: encodedFragment(
          `${stateStart(state)}"county_fips":"${fips.slice(2)}","county_name":${JSON.stringify(name)},`,
        ),
      });
    }
    const [u, b] = [lines[at + 2]!, lines[at + 3]!];
    if (!(u >= 0 && b >= 0))
      throw new Error(`${HEALTH_IMPACTS_TABLE}: county ${fips} has an unknown upgrade or bin`);
    for (let m = 0; m < MEASURES; m++) {
      const value = lines[at + 4 + m]!;
      counties[valueAt(county, u, b, m)] = value;
      counties[valueAt(county, u, ALL_BINS, m)]! += value;
    }
  }

  const stateFips = [...new Set(countyAreas.map((c) => c.fips.slice(0, 2)))];
  const stateIndex = new Map(stateFips.map((fips, i) => [fips, i]));
  const states = new Float64Array(stateFips.length * AREA_STRIDE);
  const countyRanges = stateFips.map((): [number, number] => [Infinity, -Infinity]);
  countyAreas.forEach((county, c) => {
    const s = stateIndex.get(county.fips.slice(0, 2))!;
    const range = countyRanges[s]!;
    range[0] = Math.min(range[0], c);
    range[1] = Math.max(range[1], c + 1);
    for (let i = 0; i < AREA_STRIDE; i++) states[s * AREA_STRIDE + i]! += counties[c * AREA_STRIDE + i]!;
  });

  const model: HealthModel = {
    versions: Object.fromEntries(
      Object.keys(VERSION_COLUMNS).map((name, k) => [name, versions.get(k) ?? '']),
    ) as HealthModel['versions'],
    sources: sourcesOf(snapshot.manifest, HEALTH_IMPACTS_TABLE),
    statement: HEALTH_STATEMENT,
  };
  return {
    states: {
      areas: stateFips.map((fips) => {
        const state = countyAreas[countyRanges[stateIndex.get(fips)!]![0]]!.state;
        return { fips, state, rowStart: encodedFragment(stateStart(state)) };
      }),
      values: states,
    },
    counties: { areas: countyAreas, values: counties },
    stateIndex,
    countyRanges,
    countyIndex,
    modelJson: encodedFragment(`"model":${JSON.stringify(model)}`),
  };
}

/** Distinct counties of the sums' lines (ordered by county, so a change of FIPS starts a new one). */
function countOfCounties(lines: Float64Array): number {
  let count = 0;
  for (let at = 0; at < lines.length; at += SUMS_COLUMNS) {
    if (at === 0 || lines[at] !== lines[at - SUMS_COLUMNS]) count++;
  }
  return count;
}

/**
 * The ingested sources a table was computed from: those that gave records its declared inputs read,
 * directly or through the tables it reads.
 */
export function sourcesOf(manifest: Manifest, table: string): HealthModel['sources'] {
  const records = new Set<string>();
  const seen = new Set<string>();
  const visit = (name: string) => {
    const entry = manifest.tables[name];
    if (entry === undefined || seen.has(name)) return;
    seen.add(name);
    entry.inputs.records.forEach((record) => records.add(record));
    entry.inputs.tables.forEach(visit);
  };
  visit(table);
  return Object.entries(manifest.sources)
    .filter(([, source]) => Object.keys(source.records).some((record) => records.has(record)))
    .map(([name, source]) => ({ name, kind: source.kind, version: source.version }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
