import { SplitMix64 } from '../random.ts';

/** Which part of the data a home (and every upgraded variant of it) belongs to. */
export const SPLITS = ['train', 'validation', 'test'] as const;
export type Split = (typeof SPLITS)[number];

/** The physics side the training set is drawn from; model/surrogate/rem-sources.ts binds the real one. */
export interface TrainingSources<Home, Climate> {
  readonly featureCount: number;
  readonly outputCount: number;
  readonly upgrades: readonly string[];
  /** Homes (with their climates) for one stratum; may return fewer than asked, or none. */
  sample(stratum: string, count: number, seed: number): { home: Home; climate: Climate }[];
  /** The upgraded home, or null when the upgrade does not apply to it. */
  applyUpgrade(home: Home, upgrade: string): Home | null;
  /** Writes featureCount raw features of the home at out[offset...]. */
  encodeFeatures(home: Home, climate: Climate, out: Float32Array, offset: number): void;
  /** Annual site kWh per output for each home, homes × outputCount, row-major. */
  simulate(homes: readonly Home[], climates: readonly Climate[]): Float32Array;
}

export interface TrainingPlan {
  readonly seed: number;
  /** Every stratum (e.g. state × heating fuel) gets the same number of homes, so rare mixes are covered. */
  readonly strata: readonly string[];
  readonly homesPerStratum: number;
  /** Shares of homes in train and validation; the rest is the held-out test split. */
  readonly trainShare: number;
  readonly validationShare: number;
}

/** One row per (home, applicable upgrade). */
export interface TrainingSet {
  readonly rows: number;
  readonly featureCount: number;
  readonly outputCount: number;
  readonly features: Float32Array;
  readonly kwh: Float32Array;
  /** Index of the row's home among all sampled homes. */
  readonly home: Int32Array;
  /** Index of the row's upgrade in sources.upgrades. */
  readonly upgrade: Int32Array;
  readonly split: readonly Split[];
  /** Homes sampled, and homes per split (whether or not their rows were kept). */
  readonly homes: number;
  readonly homesBySplit: Record<Split, number>;
}

/** Deterministic split of home `index`: a seeded draw per home, so a home never straddles splits. */
export function splitOf(plan: TrainingPlan, index: number): Split {
  // SplitMix64's output is a strong mix of its state, so seed‖index gives each home an independent draw.
  const u = new SplitMix64((BigInt(plan.seed) << 32n) | BigInt(index)).next();
  if (u < plan.trainShare) return 'train';
  return u < plan.trainShare + plan.validationShare ? 'validation' : 'test';
}

/**
 * Samples homes stratum by stratum, applies every upgrade (the first is the baseline), simulates each
 * applicable variant and encodes its features. Rows are kept only for homes in `keep` (by default all
 * splits), so an evaluation can rebuild just the held-out homes of the same seeded draw.
 */
export function buildTrainingSet<Home, Climate>(
  plan: TrainingPlan,
  sources: TrainingSources<Home, Climate>,
  keep: readonly Split[] = SPLITS,
  onStratum?: (done: number, total: number) => void,
): TrainingSet {
  const { featureCount, outputCount, upgrades } = sources;
  const homes: Home[] = [];
  const climates: Climate[] = [];
  const homeIndex: number[] = [];
  const upgradeIndex: number[] = [];
  const split: Split[] = [];
  const homesBySplit: Record<Split, number> = { train: 0, validation: 0, test: 0 };
  let sampled = 0;
  plan.strata.forEach((stratum, s) => {
    for (const { home, climate } of sources.sample(stratum, plan.homesPerStratum, plan.seed + s)) {
      const index = sampled++;
      const part = splitOf(plan, index);
      homesBySplit[part]++;
      if (!keep.includes(part)) continue;
      upgrades.forEach((upgrade, u) => {
        const variant = u === 0 ? home : sources.applyUpgrade(home, upgrade);
        if (!variant) return;
        homes.push(variant);
        climates.push(climate);
        homeIndex.push(index);
        upgradeIndex.push(u);
        split.push(part);
      });
    }
    onStratum?.(s + 1, plan.strata.length);
  });

  const rows = homes.length;
  const features = new Float32Array(rows * featureCount);
  homes.forEach((home, r) => sources.encodeFeatures(home, climates[r]!, features, r * featureCount));
  const kwh = sources.simulate(homes, climates);
  if (kwh.length !== rows * outputCount)
    throw new Error(`simulate returned ${kwh.length} values for ${rows} homes`);
  return {
    rows,
    featureCount,
    outputCount,
    features,
    kwh,
    home: Int32Array.from(homeIndex),
    upgrade: Int32Array.from(upgradeIndex),
    split,
    homes: sampled,
    homesBySplit,
  };
}

/** Row numbers of the set that belong to `part`. */
export function rowsOf(set: TrainingSet, part: Split): Int32Array {
  const picked: number[] = [];
  set.split.forEach((p, r) => {
    if (p === part) picked.push(r);
  });
  return Int32Array.from(picked);
}

/** The given rows of a row-major matrix `width` wide, as a new contiguous matrix. */
export function gatherRows(values: Float32Array, width: number, rows: Int32Array): Float32Array {
  const out = new Float32Array(rows.length * width);
  rows.forEach((row, k) => out.set(values.subarray(row * width, (row + 1) * width), k * width));
  return out;
}
