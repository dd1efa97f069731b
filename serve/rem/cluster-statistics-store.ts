import { close, open, read } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { forEachInSlices } from '../../lib/time-slices.ts';
import { LRUCache } from 'lru-cache';
import { FUELS, UPGRADES, type Upgrade } from '../../schemas/rem.ts';
import {
  RESULT_FUELS,
  SCENARIOS,
  clusterId,
  type ClusterKey,
  type ClusterStatisticRow,
} from '../../schemas/rem-data.ts';
import type { SnapshotReader } from '../../data-lake/snapshot-reader.ts';
import { REM_CLUSTERS, REM_CLUSTER_STATISTICS } from '../../data-lake/tables/rem.ts';

/**
 * The precomputed REM answers of a snapshot (lake table `rem_cluster_statistics`) in a compact layout.
 * A national table has tens of thousands of clusters × 110 lines × 12 numbers: as row objects it would
 * take gigabytes, and even as one Float64Array it would not fit the server's memory budget. So DuckDB (in
 * the snapshot reader's child process) writes it as a float64 file in fixed slots, one per (cluster,
 * upgrade): 5 result fuels × 3 scenarios × 12 statistics, NaN where a line is absent (the baseline
 * upgrade's upgrade and delta). A request reads its one slot (1,440 bytes) by position; only the cluster
 * directory (its key and each upgrade's sample counts) sits in memory.
 */

const MEASURES = ['energy', 'emissions', 'cost'] as const;
const STATISTICS = ['mean', 'median', 'p20', 'p80'] as const;
/** Numbers per (fuel, scenario) line: energy, emissions and cost × mean, median, p20, p80. */
export const LINE_VALUES = MEASURES.length * STATISTICS.length;
/** Numbers per (cluster, upgrade) slot. */
export const SLOT_VALUES = RESULT_FUELS.length * SCENARIOS.length * LINE_VALUES;
const SLOT_BYTES = SLOT_VALUES * Float64Array.BYTES_PER_ELEMENT;

/** The unit of each fuel's energy lines (the schema's `energy_unit`, fixed per fuel). */
export const ENERGY_UNITS = {
  electricity: 'kWh',
  natural_gas: 'therm',
  fuel_oil: 'gallon',
  propane: 'gallon',
  total: 'kWh',
} as const;

/**
 * Directory columns: county FIPS, heating fuel, water-heater fuel (−1: none given), per upgrade its
 * sample and excluded counts (−1: no lines for that upgrade), then two checks that must be 0: lines in
 * another energy unit than their fuel's, and upgrades whose lines are not exactly one per slot they use.
 */
const DIRECTORY_COLUMNS = 3 + 2 * UPGRADES.length + 2;

const sqlList = (values: readonly string[]) => `[${values.map((v) => `'${v}'`).join(', ')}]`;
const indexOf = (values: readonly string[], column: string) =>
  `list_position(${sqlList(values)}, ${column}) - 1`;

/** A cluster key as three numbers: county FIPS, heating fuel, water-heater fuel (−1: none given). */
const KEY_COLUMNS = `CAST(county_fips AS INTEGER) AS county,
    ${indexOf(FUELS, 'heating_fuel')} AS hf,
    coalesce(${indexOf(FUELS, 'water_heater_fuel')}, -1) AS whf`;

/** The cluster key of the three numbers at `row` of a float64 export (see KEY_COLUMNS). */
const keyAt = (numbers: Float64Array, row: number): ClusterKey => {
  const whf = numbers[row + 2]!;
  return {
    county_fips: String(numbers[row]).padStart(5, '0'),
    heating_fuel: FUELS[numbers[row + 1]!]!,
    water_heater_fuel: whf < 0 ? null : FUELS[whf]!,
  };
};

/** Every line with its key and slot position as numbers, so both queries order clusters alike. */
const KEYED_LINES = `
  SELECT *,
    ${KEY_COLUMNS},
    ${indexOf(UPGRADES, 'upgrade')} AS u,
    ${indexOf(RESULT_FUELS, 'fuel')} AS f,
    ${indexOf(SCENARIOS, 'scenario')} AS s
  FROM ${REM_CLUSTER_STATISTICS.name}`;

const unitCase = `CASE fuel ${Object.entries(ENERGY_UNITS)
  .map(([fuel, unit]) => `WHEN '${fuel}' THEN '${unit}'`)
  .join(' ')} END`;

const DIRECTORY_SQL = `
  WITH lines AS (${KEYED_LINES})
  SELECT county, hf, whf,
    ${UPGRADES.map(
      (_, u) =>
        `coalesce(max(num_samples) FILTER (WHERE u = ${u}), -1), coalesce(max(num_excluded_samples) FILTER (WHERE u = ${u}), -1)`,
    ).join(',\n    ')},
    count(*) FILTER (WHERE energy_unit <> ${unitCase}),
    ${UPGRADES.map((upgrade, u) => {
      const lines = RESULT_FUELS.length * (upgrade === 'baseline' ? 1 : SCENARIOS.length);
      return `(CASE WHEN count(DISTINCT (f, s)) FILTER (WHERE u = ${u}) = count(*) FILTER (WHERE u = ${u}) AND count(*) FILTER (WHERE u = ${u}) IN (0, ${lines}) THEN 0 ELSE 1 END)`;
    }).join(' + ')}
  FROM lines GROUP BY county, hf, whf ORDER BY county, hf, whf`;

const STATISTIC_COLUMNS = MEASURES.flatMap((m) => STATISTICS.map((s) => `lines.${m}_${s}`));

const SLOTS_SQL = `
  WITH lines AS (${KEYED_LINES}),
  clusters AS (SELECT DISTINCT county, hf, whf FROM lines),
  grid AS (
    SELECT county, hf, whf, u.range AS u, f.range AS f, s.range AS s
    FROM clusters, range(${UPGRADES.length}) u, range(${RESULT_FUELS.length}) f, range(${SCENARIOS.length}) s)
  SELECT ${STATISTIC_COLUMNS.map((c) => `coalesce(${c}, 'nan'::DOUBLE)`).join(', ')}
  FROM grid LEFT JOIN lines USING (county, hf, whf, u, f, s)
  ORDER BY county, hf, whf, u, f, s`;

export interface SampleCounts {
  num_samples: number;
  num_excluded_samples: number;
}

/** One (cluster, upgrade) slot: the statistics of every result fuel and scenario, and its sample counts. */
export interface ClusterAnswer {
  /**
   * `SLOT_VALUES` numbers: [fuel][scenario][measure][statistic], NaN for absent lines. Read only: a slot
   * kept in memory is the same array for every answer of it.
   */
  values: Float64Array;
  counts: SampleCounts;
}

/** Per cluster (the directory's order) and upgrade: the total delta's median cost and emissions, NaN when absent. */
const MEDIANS_SQL = `
  WITH lines AS (${KEYED_LINES})
  SELECT ${UPGRADES.map((_, u) =>
    ['cost', 'emissions']
      .map(
        (measure) =>
          `coalesce(max(${measure}_median) FILTER (WHERE u = ${u} AND f = ${RESULT_FUELS.indexOf('total')} AND s = ${SCENARIOS.indexOf('delta')}), 'nan'::DOUBLE)`,
      )
      .join(', '),
  ).join(',\n    ')}
  FROM lines GROUP BY county, hf, whf ORDER BY county, hf, whf`;

/** What the county map shows of a cluster and upgrade: the sample counts, and the total delta's medians. */
export interface TotalDeltaMedians {
  counts: SampleCounts;
  /** Median change per home, all fuels together: cost ($) and emissions (kgCO2e); NaN when absent. */
  cost: number;
  emissions: number;
}

const fdCloser = new FinalizationRegistry<number>((fd) => close(fd, () => undefined));

/**
 * Slots kept in memory once read, the least recently asked dropped first: about 6 MB, every county for one
 * fuel and upgrade. A slot read from the file waits for libuv's thread pool, which cost /rem/address with a
 * new address every request about 15 % of its throughput against a synchronous read of a warm page cache;
 * with the kept slots it was 5–7 % faster than that synchronous read (the country's ZIPs, one fuel and
 * upgrade, 2 cores).
 */
const RECENT_SLOTS = 4_096;

export class ClusterStatisticsStore {
  private constructor(
    /** Cluster id → its position in the directory and the slots file. */
    private readonly positions: ReadonlyMap<string, number>,
    private readonly directory: Float64Array,
    /** Per position and upgrade, the total delta's median cost and emissions (see MEDIANS_SQL). */
    private readonly medians: Float64Array,
    private readonly fd: number,
  ) {
    fdCloser.register(this, fd);
  }

  private readonly recentSlots = new LRUCache<string, Float64Array>({ max: RECENT_SLOTS });

  /** Builds (or reuses) the snapshot's slot file and reads the directory into memory. */
  static async load(snapshot: SnapshotReader): Promise<ClusterStatisticsStore> {
    const directoryFile = await snapshot.writeFloat64File('rem-cluster-directory', DIRECTORY_SQL);
    const directory = await readAll(directoryFile.path, directoryFile.values);
    const clusters = directory.length / DIRECTORY_COLUMNS;
    const positions = new Map<string, number>();
    // In slices of the event loop's time: a national lake's tens of thousands of clusters held it for
    // 20–25 ms a table while the server answered from the snapshot it serves.
    await forEachInSlices(clusters, (i) => {
      const row = i * DIRECTORY_COLUMNS;
      const key = keyAt(directory, row);
      const wrongUnits = directory[row + DIRECTORY_COLUMNS - 2]!;
      const incompleteUpgrades = directory[row + DIRECTORY_COLUMNS - 1]!;
      if (wrongUnits > 0 || incompleteUpgrades > 0) {
        throw new Error(
          `${REM_CLUSTER_STATISTICS.name}: cluster ${clusterId(key)} has ${wrongUnits} lines in another energy unit ` +
            `and ${incompleteUpgrades} upgrades with missing or repeated lines`,
        );
      }
      positions.set(clusterId(key), i);
    });
    // Checked before the slots are written: a table with a line out of place is refused, not laid out.
    const slotsFile = await snapshot.writeFloat64File('rem-cluster-slots', SLOTS_SQL);
    if (slotsFile.values !== clusters * UPGRADES.length * SLOT_VALUES) {
      throw new Error(
        `${REM_CLUSTER_STATISTICS.name}: ${slotsFile.values} slot values for ${clusters} clusters`,
      );
    }
    // The map's two numbers per slot sit in memory: a map of every county reads thousands of clusters.
    const mediansFile = await snapshot.writeFloat64File('rem-cluster-medians', MEDIANS_SQL);
    const medians = await readAll(mediansFile.path, mediansFile.values);
    if (medians.length !== clusters * UPGRADES.length * 2) {
      throw new Error(`${REM_CLUSTER_STATISTICS.name}: ${medians.length} medians for ${clusters} clusters`);
    }
    const fd = await new Promise<number>((resolve, reject) =>
      open(slotsFile.path, 'r', (err, opened) => (err ? reject(err) : resolve(opened))),
    );
    return new ClusterStatisticsStore(positions, directory, medians, fd);
  }

  get clusterCount(): number {
    return this.positions.size;
  }

  /** The sample counts of a cluster's position and upgrade (num_samples −1: no lines for it). */
  private countsAt(position: number, u: number): SampleCounts {
    return {
      num_samples: this.directory[position * DIRECTORY_COLUMNS + 3 + 2 * u]!,
      num_excluded_samples: this.directory[position * DIRECTORY_COLUMNS + 4 + 2 * u]!,
    };
  }

  /** A cluster's position in the store (by its id), for `totalDeltaMedians`; undefined when it has none. */
  positionOf(id: string): number | undefined {
    return this.positions.get(id);
  }

  /**
   * What the county map shows of a cluster's answer for an upgrade (the cluster by its position), from
   * memory (no slot read): the numbers `answer` has at the total delta's medians. Null when `answer` is.
   */
  totalDeltaMedians(position: number, upgrade: Upgrade): TotalDeltaMedians | null {
    const u = UPGRADES.indexOf(upgrade);
    const counts = this.countsAt(position, u);
    if (counts.num_samples < 0) return null;
    const at = (position * UPGRADES.length + u) * 2;
    return { counts, cost: this.medians[at]!, emissions: this.medians[at + 1]! };
  }

  /** The cluster's answer for an upgrade; null when the cluster is unknown or has no lines for it. */
  async answer(key: ClusterKey, upgrade: Upgrade): Promise<ClusterAnswer | null> {
    const position = this.positions.get(clusterId(key));
    if (position === undefined) return null;
    const u = UPGRADES.indexOf(upgrade);
    const counts = this.countsAt(position, u);
    if (counts.num_samples < 0) return null;
    const slot = position * UPGRADES.length + u;
    return { values: this.recentSlots.get(String(slot)) ?? (await this.read(slot)), counts };
  }

  private async read(slot: number): Promise<Float64Array> {
    const values = new Float64Array(SLOT_VALUES);
    // On libuv's thread pool, never on the event loop: the file is hundreds of MB and the page cache need
    // not hold the slot's page (after a restart, or under a container's memory limit, which counts the
    // cache), and then the read is a disk read. Of 3,000 random slots of a national file dropped from the
    // cache, a synchronous read took 0.13 ms at the median and 1–3 ms at worst on this project's machine, all
    // of it waited for by every other request. Awaiting keeps the store (and so its fd) alive until the
    // read is done.
    const { bytesRead } = await readAt(
      this.fd,
      new Uint8Array(values.buffer),
      0,
      SLOT_BYTES,
      slot * SLOT_BYTES,
    );
    if (bytesRead !== SLOT_BYTES) throw new Error(`rem slots: short read of slot ${slot}`);
    this.recentSlots.set(String(slot), values);
    return values;
  }
}

const readAt = promisify(read);

/**
 * Every cluster the simulate stage ran (lake table `rem_clusters`), by id: true when the sampler found
 * its fuels plausible for the county (it has statistics), false when not (building_not_supported). A
 * cluster missing here was not computed for this snapshot at all.
 */
export async function loadClusterSupport(snapshot: SnapshotReader): Promise<ReadonlyMap<string, boolean>> {
  const file = await snapshot.writeFloat64File(
    'rem-cluster-support',
    `SELECT ${KEY_COLUMNS}, CASE WHEN supported THEN 1 ELSE 0 END FROM ${REM_CLUSTERS.name} ORDER BY county, hf, whf`,
  );
  const numbers = await readAll(file.path, file.values);
  const support = new Map<string, boolean>();
  await forEachInSlices(numbers.length / 4, (i) =>
    support.set(clusterId(keyAt(numbers, 4 * i)), numbers[4 * i + 3] === 1),
  );
  return support;
}

async function readAll(file: string, values: number): Promise<Float64Array> {
  const numbers = new Float64Array(values);
  const bytes = await readFile(file);
  if (bytes.length !== numbers.byteLength) throw new Error(`${file}: unexpected size`);
  new Uint8Array(numbers.buffer).set(bytes);
  return numbers;
}

const MEASURE_COLUMNS = MEASURES.flatMap((m) => STATISTICS.map((s) => `${m}_${s}` as const));

/**
 * An answer from one upgrade's statistics lines (computed for a request rather than read from the
 * slots): the same slot layout, so both are written out alike.
 */
export function answerOfLines(lines: readonly ClusterStatisticRow[]): ClusterAnswer {
  const values = new Float64Array(SLOT_VALUES).fill(NaN);
  for (const line of lines) {
    const start =
      (RESULT_FUELS.indexOf(line.fuel) * SCENARIOS.length + SCENARIOS.indexOf(line.scenario)) * LINE_VALUES;
    MEASURE_COLUMNS.forEach((column, i) => (values[start + i] = line[column]));
  }
  const first = lines[0]!;
  return {
    values,
    counts: { num_samples: first.num_samples, num_excluded_samples: first.num_excluded_samples },
  };
}
