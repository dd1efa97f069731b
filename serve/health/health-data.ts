import { readFile } from 'node:fs/promises';
import { HEALTH_METRICS, HEALTH_METRIC_NAMES, type HealthModel } from '../../schemas/health-api.ts';
import { HEALTH_ESTIMATES, HEALTH_STATEMENT } from '../../schemas/health-model.ts';
import {
  HEALTH_UPGRADES,
  HOUSING_TYPES,
  SQFT_BINS,
  VALUE_OF_STATISTICAL_LIFE,
  type HealthImpactCell,
} from '../../schemas/health-data.ts';
import type { Manifest } from '../../schemas/lake.ts';
import { HEALTH_COUNTY_IMPACTS } from '../../data-lake/tables/health.ts';
import { CONTIGUOUS_STATE_FIPS, GRID_EMISSIONS, type GridEmissions } from '../../schemas/rem-data.ts';
import type { SnapshotReader } from '../../data-lake/snapshot-reader.ts';
import { encodedFragment } from '../http/json-bytes.ts';
import { readKeyedTexts } from '../snapshot/text-columns.ts';
import { forEachInSlices } from '../../lib/time-slices.ts';

/**
 * The lake table the health-impacts route answers from: the simulate stage's rollup (HEALTH_COUNTY_IMPACTS).
 *
 * Per area (state or county) and upgrade, the sums of the cells are kept per floor-area bin × housing type
 * ("slots") and measure, and in one more slot their total, which an ungrouped row (most requests) reads as
 * it is; a row over all bins of a housing type, or both housing types of a bin, adds the slots it covers
 * when it is answered (at most 4 per number). The cells' quantized values make every sum exact, so the
 * order of the additions cannot change a digit; it is fixed all the same (bins, then housing types, in
 * their declared order). A county takes 7 upgrades × 9 slots × 10 measures × 8 B = 5,040 B: about 16 MB
 * for the ~3,100 counties of the contiguous US (their states another ~0.2 MB).
 */

/**
 * The cell column of each number kept per (area, upgrade, slot): households, then each metric's (central)
 * impact in HEALTH_METRIC_NAMES order, then the low impacts of the mortality metrics, in the same order.
 */
export const MEASURE_COLUMNS: readonly (keyof HealthImpactCell)[] = [
  'households',
  ...HEALTH_METRIC_NAMES.map((metric) => HEALTH_METRICS[metric].column),
  ...HEALTH_METRIC_NAMES.flatMap((metric) => HEALTH_METRICS[metric].low ?? []),
];
export const MEASURES = MEASURE_COLUMNS.length;
export const HOUSEHOLDS = 0;
/** The measure of each metric's impact, and of its low impact (-1 for the kilogram metrics), by metric index. */
export const IMPACT_MEASURES = HEALTH_METRIC_NAMES.map((metric) =>
  MEASURE_COLUMNS.indexOf(HEALTH_METRICS[metric].column),
);
export const LOW_MEASURES = HEALTH_METRIC_NAMES.map((metric) => {
  const low = HEALTH_METRICS[metric].low;
  return low === null ? -1 : MEASURE_COLUMNS.indexOf(low);
});

/** Slots per (area, upgrade): every floor-area bin × housing type, bin-major, then their total. */
const GROUP_SLOTS = SQFT_BINS.length * HOUSING_TYPES.length;
const SLOTS = GROUP_SLOTS + 1;
const TOTAL_OFFSET = GROUP_SLOTS * MEASURES;
const MULTI_FAMILY = HOUSING_TYPES.indexOf('multi_family');
const UPGRADE_STRIDE = SLOTS * MEASURES;
const AREA_STRIDE = HEALTH_UPGRADES.length * UPGRADE_STRIDE;

/** A state or county the answer can have rows for. */
export interface HealthArea {
  /** Two digits for a state, five for a county. */
  fips: string;
  /** The state's postal code. */
  state: string;
  /** The county's name (a state's: its postal code). */
  name: string;
  /** The row's opening columns, JSON-encoded (UTF-8): `{"state_abbreviation":"..",` (and the county's two). */
  rowStart: Buffer;
}

/** The sums of the rollup cells, per area, upgrade, slot and measure (see `valueAt`). */
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
  /**
   * Per county position, the start of its row of the county map (`{"county_fips":…,"county_name":…,
   * "state_abbreviation":…,"number_of_households":`), encoded once per snapshot.
   */
  countyMapRowStarts: readonly Buffer[];
  /** `"model":{…}`, encoded (UTF-8). */
  modelJson: Buffer;
}

/**
 * What the health route holds per snapshot: the data on each grid basis (the cells' power-plant tonnes
 * counted on the long-run grid or today's), null while the snapshot has no health table.
 */
export interface HealthSnapshot {
  data: Readonly<Record<GridEmissions, HealthData>> | null;
}

/** Position in a `HealthSums.values` of an (area, upgrade)'s slots: add `slotOffset(bin, housing) + measure`. */
export const upgradeAt = (area: number, upgrade: number) => area * AREA_STRIDE + upgrade * UPGRADE_STRIDE;
/** Offset of a bin × housing type's measures from its (area, upgrade)'s start. */
export const slotOffset = (bin: number, housing: number) => (bin * HOUSING_TYPES.length + housing) * MEASURES;
/** Position of (area, upgrade, bin, housing type, measure) in a `HealthSums.values`. */
export const valueAt = (area: number, upgrade: number, bin: number, housing: number, measure: number) =>
  upgradeAt(area, upgrade) + slotOffset(bin, housing) + measure;

/** The choice of a row over every floor-area bin, and over both housing types. */
export const ALL_BINS = SQFT_BINS.length;
export const ALL_HOUSING = HOUSING_TYPES.length;

/**
 * The slots a row adds up, from its (area, upgrade)'s start: `count` slots, the first at offset `first`,
 * each `stride` after the previous. Any choice of bins and housing types is such a run (the slots are
 * bin-major), so a row's numbers are summed without an index table.
 */
export interface SlotRun {
  first: number;
  count: number;
  stride: number;
}

/** The run of the slots of a bin (or ALL_BINS) × a housing type (or ALL_HOUSING): bins, then housing types, in order. */
function slotRun(bin: number, housing: number): SlotRun {
  const offsets = SQFT_BINS.flatMap((_bin, b) =>
    HOUSING_TYPES.flatMap((_type, h) =>
      (bin === ALL_BINS || b === bin) && (housing === ALL_HOUSING || h === housing) ? [slotOffset(b, h)] : [],
    ),
  );
  const stride = offsets.length > 1 ? offsets[1]! - offsets[0]! : MEASURES;
  if (offsets.some((offset, i) => offset !== offsets[0]! + i * stride)) {
    throw new Error(`health sums: the slots of bin ${bin} × housing type ${housing} are not evenly spaced`);
  }
  return { first: offsets[0] ?? 0, count: offsets.length, stride };
}
const choices = (count: number) => Array.from({ length: count + 1 }, (_, i) => i);
const SLOT_RUNS = choices(ALL_BINS).map((b) =>
  choices(ALL_HOUSING).map((h) =>
    b === ALL_BINS && h === ALL_HOUSING ? { first: TOTAL_OFFSET, count: 1, stride: MEASURES } : slotRun(b, h),
  ),
);
const NO_SLOTS: SlotRun = { first: 0, count: 0, stride: MEASURES };
const MULTI_FAMILY_RUNS = choices(ALL_BINS).map((b) =>
  choices(ALL_HOUSING).map((h) =>
    h === ALL_HOUSING || h === MULTI_FAMILY ? slotRun(b, MULTI_FAMILY) : NO_SLOTS,
  ),
);

/** The slots a row of a bin (or ALL_BINS) and a housing type (or ALL_HOUSING) adds up. */
export const slotsOf = (bin: number, housing: number): SlotRun => SLOT_RUNS[bin]![housing]!;
/** The multi-family ones among `slotsOf(bin, housing)`. */
export const multiFamilySlotsOf = (bin: number, housing: number): SlotRun =>
  MULTI_FAMILY_RUNS[bin]![housing]!;

/** The sum of one measure over some slots of the (area, upgrade) at `base` (`upgradeAt`), in the slots' order. */
export function sumOver(values: Float64Array, base: number, slots: SlotRun, measure: number): number {
  let sum = 0;
  let at = base + slots.first + measure;
  for (let i = 0; i < slots.count; i++, at += slots.stride) sum += values[at]!;
  return sum;
}

const STATES = Object.keys(CONTIGUOUS_STATE_FIPS);
const sqlList = (values: readonly string[]) => `[${values.map((v) => `'${v}'`).join(', ')}]`;
const indexOf = (values: readonly string[], column: string) =>
  `list_position(${sqlList(values)}, ${column}) - 1`;

/**
 * One line per (county, state, upgrade, bin, housing type) of a grid basis: the cells summed over heating
 * fuels. The cells' quantized values make every sum exact, so sums of these sums are too, in any order. A
 * state outside the contiguous US reads as NaN (refused below).
 */
const sumsSql = (basis: GridEmissions) => `
  SELECT CAST(county_fips AS INTEGER) AS county, ${indexOf(STATES, 'state')} AS s,
    ${indexOf(HEALTH_UPGRADES, 'upgrade')} AS u, ${indexOf(SQFT_BINS, 'sqft_bin')} AS b,
    ${indexOf(HOUSING_TYPES, 'housing_type')} AS h,
    ${MEASURE_COLUMNS.map((column) => `sum(${column})`).join(', ')}
  FROM ${HEALTH_COUNTY_IMPACTS.name} WHERE grid_emissions = '${basis}'
  GROUP BY ALL ORDER BY county, s, u, b, h`;
const KEY_COLUMNS = 5;
const SUMS_COLUMNS = KEY_COLUMNS + MEASURES;

const NAMES_SQL = `SELECT CAST(county_fips AS INTEGER) AS k, min(county_name) AS t FROM ${HEALTH_COUNTY_IMPACTS.name} GROUP BY k`;

const VERSION_COLUMNS = {
  code: 'code_version',
  model: 'model_version',
  emission_factors: 'factors_version',
  damage_factors: 'damage_factors_version',
} as const;
const VERSIONS_SQL = Object.values(VERSION_COLUMNS)
  .map(
    (column, k) =>
      `SELECT ${k} AS k, string_agg(DISTINCT ${column}, ', ' ORDER BY ${column}) AS t FROM ${HEALTH_COUNTY_IMPACTS.name}`,
  )
  .join(' UNION ALL ');

const stateStart = (state: string) => `{"state_abbreviation":${JSON.stringify(state)},`;

/**
 * Loads a snapshot's health table as per-area sums. A snapshot without it (published before the rollup
 * ran) still loads, so the other routes keep serving: the health route then answers 503.
 */
export async function loadHealthSnapshot(snapshot: SnapshotReader): Promise<HealthSnapshot> {
  if (!(HEALTH_COUNTY_IMPACTS.name in snapshot.manifest.tables)) return { data: null };
  const names = await readKeyedTexts(snapshot, 'health-county-names', NAMES_SQL);
  const versions = await readKeyedTexts(snapshot, 'health-versions', VERSIONS_SQL);
  const data = {} as Record<GridEmissions, HealthData>;
  for (const basis of GRID_EMISSIONS) data[basis] = await loadHealthData(snapshot, basis, names, versions);
  return { data };
}

async function loadHealthData(
  snapshot: SnapshotReader,
  basis: GridEmissions,
  names: ReadonlyMap<number, string>,
  versions: ReadonlyMap<number, string>,
): Promise<HealthData> {
  const file = await snapshot.writeFloat64File(`health-county-sums-${basis}`, sumsSql(basis));
  const lines = new Float64Array(file.values);
  new Uint8Array(lines.buffer).set(await readFile(file.path));

  const countyAreas: HealthArea[] = [];
  const countyIndex = new Map<string, number>();
  const lineCount = lines.length / SUMS_COLUMNS;
  const counties = new Float64Array(countOfCounties(lines) * AREA_STRIDE);
  // In slices of the event loop's time: a national table's lines held it 55–91 ms per grid basis, while
  // the server answered from the snapshot it serves.
  await forEachInSlices(lineCount, (line) => {
    const at = line * SUMS_COLUMNS;
    const fips = String(lines[at]).padStart(5, '0');
    const state = STATES[lines[at + 1]!];
    if (state === undefined || CONTIGUOUS_STATE_FIPS[state] !== fips.slice(0, 2)) {
      throw new Error(
        `${HEALTH_COUNTY_IMPACTS.name}: county ${fips} has cells of state ${state ?? 'outside the contiguous US'}`,
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
        name,
        rowStart: encodedFragment(
          `${stateStart(state)}"county_fips":"${fips.slice(2)}","county_name":${JSON.stringify(name)},`,
        ),
      });
    }
    const [u, b, h] = [lines[at + 2]!, lines[at + 3]!, lines[at + 4]!];
    if (!(u >= 0 && b >= 0 && h >= 0))
      throw new Error(
        `${HEALTH_COUNTY_IMPACTS.name}: county ${fips} has an unknown upgrade, bin or housing type`,
      );
    const slot = valueAt(county, u, b, h, 0);
    for (let m = 0; m < MEASURES; m++) counties[slot + m] = lines[at + KEY_COLUMNS + m]!;
  });
  addTotals(counties);

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

  return {
    states: {
      areas: stateFips.map((fips) => {
        const state = countyAreas[countyRanges[stateIndex.get(fips)!]![0]]!.state;
        return { fips, state, name: state, rowStart: encodedFragment(stateStart(state)) };
      }),
      values: states,
    },
    counties: { areas: countyAreas, values: counties },
    stateIndex,
    countyRanges,
    countyIndex,
    countyMapRowStarts: countyAreas.map(countyMapRowStart),
    modelJson: encodedFragment(`"model":${JSON.stringify(healthModel(snapshot, basis, versions))}`),
  };
}

/** A county's row start of the county map (see HealthData.countyMapRowStarts). */
function countyMapRowStart({ fips, name, state }: HealthArea): Buffer {
  const start = JSON.stringify({
    county_fips: fips,
    county_name: name,
    state_abbreviation: state,
    number_of_households: 0,
  });
  return encodedFragment(start.slice(0, -2));
}

/** What produced a snapshot's health numbers: the rollup's versions and sources, the estimates and valuation. */
function healthModel(
  snapshot: SnapshotReader,
  basis: GridEmissions,
  versions: ReadonlyMap<number, string>,
): HealthModel {
  return {
    versions: Object.fromEntries(
      Object.keys(VERSION_COLUMNS).map((name, k) => [name, versions.get(k) ?? '']),
    ) as HealthModel['versions'],
    sources: sourcesOf(snapshot.manifest, HEALTH_COUNTY_IMPACTS.name),
    estimates: HEALTH_ESTIMATES,
    valuation: {
      usd_per_death: Math.round(VALUE_OF_STATISTICAL_LIFE.usd),
      dollar_year: VALUE_OF_STATISTICAL_LIFE.dollarYear,
    },
    grid_emissions: basis,
    statement: HEALTH_STATEMENT,
  };
}

/** Fills each (area, upgrade)'s total slot with the sum of its group slots, in their order. */
function addTotals(values: Float64Array): void {
  const all = slotRun(ALL_BINS, ALL_HOUSING);
  for (let base = 0; base < values.length; base += UPGRADE_STRIDE) {
    for (let m = 0; m < MEASURES; m++) values[base + TOTAL_OFFSET + m] = sumOver(values, base, all, m);
  }
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
