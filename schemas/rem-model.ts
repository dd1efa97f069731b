import type { RemProfileBody } from './rem-api.ts';
import type {
  ClusterKey,
  ClusterStatisticRow,
  EmissionFactor,
  EnergyRate,
  RemCountyRow,
} from './rem-data.ts';

/*
 * The model work a REM request can trigger, as the server asks for it: a county's cluster the snapshot
 * did not precompute, and a building profile's homes. The server holds this interface only; the
 * composition root (start/) supplies the simulate stage's implementation, which runs off the event loop.
 */

/**
 * What the model reads of the pinned snapshot for one county: its row, its state's rates and its emission
 * factors on the request's grid basis.
 */
export interface CountyInputs {
  county: RemCountyRow;
  /** The county's state's rate rows (the prices are chosen from these, in order). */
  rates: readonly EnergyRate[];
  /** The county's emission factors on the request's grid basis (countyEmissionFactors). */
  factors: readonly EmissionFactor[];
}

/** A cluster computed by the stage's own recipe (seed, sampler, prices, surrogate): the precompute's answer. */
export interface ClusterJob extends CountyInputs {
  key: ClusterKey;
  /** Sample homes, as the snapshot's clusters were drawn (its REM_SAMPLES). */
  samples: number;
}

/** The statistics lines of every upgrade of the cluster, or that its fuels are implausible for the county. */
export type ClusterOutcome = { supported: false } | { supported: true; lines: ClusterStatisticRow[] };

export interface ProfileJob extends CountyInputs {
  body: RemProfileBody;
}

/** Why a profile has no answer. */
export type ProfileRefusal = 'implausible_combination' | 'unsupported_location' | 'too_few_matches';

/** The statistics lines of the profile's upgrade (none: it applies to no matching home), or why there are none. */
export type ProfileOutcome =
  | { supported: true; lines: ClusterStatisticRow[] }
  | { supported: false; reason: ProfileRefusal; message: string };

/** The versions of the model that answers. */
export interface RemModelVersions {
  model_version: string;
  sampler_version: string;
}

export interface RemModel {
  readonly versions: RemModelVersions;
  cluster(job: ClusterJob): Promise<ClusterOutcome>;
  profile(job: ProfileJob): Promise<ProfileOutcome>;
  /** Jobs waiting for a thread (a metric). */
  queued(): number;
  close(): Promise<void>;
}
