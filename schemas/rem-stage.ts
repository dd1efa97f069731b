import { z } from 'zod';
import { countyFipsSchema, stateCodeSchema } from './codes.ts';
import { healthBinDeltaSchema } from './health-data.ts';
import { clusterKeySchema, countyProfileSchema } from './rem-data.ts';
import { upgradeSchema } from './rem.ts';

/**
 * The simulate stage's messages on the event log: one work unit per REM cluster, and its result. Both are
 * keyed by the cluster id and carry the unit's input fingerprint, so a result answers exactly one unit and
 * a result already on the log for the same fingerprint never needs computing again.
 */

export const REM_WORK_UNITS_TOPIC = 'rem-work-units';
export const REM_RESULTS_TOPIC = 'rem-cluster-results';
export const REM_WORK_UNIT_SCHEMA = 'rem-work-unit';
export const REM_WORK_UNIT_VERSION = 2;
export const REM_CLUSTER_RESULT_SCHEMA = 'rem-cluster-result';
export const REM_CLUSTER_RESULT_VERSION = 3;

const fuelPriceSchema = z.object({
  unit: z.enum(['kWh', 'therm', 'gallon']),
  kwhPerUnit: z.number().positive(),
  volumetric: z.number().nonnegative(),
  fixedAnnual: z.number().nonnegative(),
  kgCo2ePerUnit: z.number().nonnegative(),
});

/** Versions of everything a cluster's statistics come from. */
export const remInputVersionsSchema = z.object({
  /** 12 hex digits of the hash of the simulate code (sampler, features, physics, statistics). */
  code: z.string().regex(/^[0-9a-f]{12}$/),
  model: z.string().min(1),
  /** Short hash of the state's rate records / the emission factors used. */
  rates: z.string().min(1),
  factors: z.string().min(1),
});
export type RemInputVersions = z.infer<typeof remInputVersionsSchema>;

export const remWorkUnitSchema = z.object({
  cluster_id: z.string().min(1),
  cluster: clusterKeySchema,
  /** The county's row of the lake's county table (extra columns, such as its station, kept). */
  county: countyProfileSchema.loose(),
  prices: z.object({
    electricity: fuelPriceSchema,
    natural_gas: fuelPriceSchema,
    fuel_oil: fuelPriceSchema,
    propane: fuelPriceSchema,
  }),
  samples: z.number().int().positive(),
  /** The sampler's seed, a decimal 64-bit integer: hashSeed(cluster id + a fixed salt). */
  seed: z.string().regex(/^\d+$/),
  versions: remInputVersionsSchema,
  /** SHA-256 of everything above, the model file and the simulate code: equal fingerprints, equal results. */
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
});
export type RemWorkUnit = z.infer<typeof remWorkUnitSchema>;

export const remClusterResultSchema = z.object({
  cluster_id: z.string().min(1),
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  /** The unit's versions, so a result on the log says what it came from on its own. */
  versions: remInputVersionsSchema,
  supported: z.boolean(),
  /** Why the sampler declined the cluster (null when supported). */
  reason: z.string().nullable(),
  message: z.string().nullable(),
  samples: z.number().int().nonnegative(),
  /** Sample homes each upgrade does not apply to. */
  excluded: z.partialRecord(upgradeSchema, z.number().int().nonnegative()),
  /** Homes run through the surrogate (baseline plus applicable upgraded homes). */
  evaluations: z.number().int().nonnegative(),
  /**
   * The statistics lines as an Apache Arrow IPC stream, base64 (columns: see
   * simulate/statistics-arrow.ts); null for an unsupported cluster.
   */
  statistics: z.base64().nullable(),
  /**
   * The health rollup's per-bin fuel changes; only for supported clusters whose water-heater fuel is drawn
   * (they stand for all the county's homes with the heating fuel), null otherwise.
   */
  health_bins: z.array(healthBinDeltaSchema).nullable(),
});
export type RemClusterResult = z.infer<typeof remClusterResultSchema>;

/** One REM cluster as the simulate stage ran it (lake table `rem_clusters`). */
export const remClusterRowSchema = z
  .object({
    cluster_id: z.string().min(1),
    county_fips: countyFipsSchema,
    state: stateCodeSchema,
    county_name: z.string(),
    heating_fuel: clusterKeySchema.shape.heating_fuel,
    water_heater_fuel: clusterKeySchema.shape.water_heater_fuel,
    /** False when the sampler finds the fuels implausible for the county (the API's building_not_supported). */
    supported: z.boolean(),
    reason: z.string().nullable(),
    message: z.string().nullable(),
    samples: z.number().int().nonnegative(),
    /** Sample homes each upgrade does not apply to, by upgrade (JSON). */
    excluded_samples: z.partialRecord(upgradeSchema, z.number().int().nonnegative()),
    evaluations: z.number().int().nonnegative(),
    seed: z.string(),
    /** The simulate code's hash (12 hex digits) the cluster was computed by. */
    code_version: z.string(),
    model_version: z.string(),
    rates_version: z.string(),
    factors_version: z.string(),
    fingerprint: z.string(),
  })
  .strict();
export type RemClusterRow = z.infer<typeof remClusterRowSchema>;
