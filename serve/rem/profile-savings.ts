import { createHash } from 'node:crypto';
import type { RemProfileBody } from '../../schemas/rem-api.ts';
import type { ClusterStatisticRow, EmissionFactor, EnergyRate } from '../../schemas/rem-data.ts';
import type { Home, SampleConditions } from '../../schemas/rem.ts';
import { sampleHomes, type SampledHome, type SampleResult } from '../../simulate/sampler/sample-homes.ts';
import { samplingCountyOf } from '../../simulate/sampler/sampling-county.ts';
import { evaluateHomes } from '../../simulate/savings/evaluate-homes.ts';
import { fuelPricesFor } from '../../simulate/savings/fuel-prices.ts';
import type { Predictor } from '../../simulate/surrogate/held-out.ts';
import type { RemCountyRow } from '../../schemas/tables/rem.ts';
import { answerOfLines, type ClusterAnswer } from './cluster-statistics-store.ts';
import { profileMatcher } from './profile-features.ts';

/**
 * POST /rem/profile's answer, computed on demand: the county's homes are drawn with the caller's fuels,
 * the ones that match every known building feature are kept (rejection sampling, bounded), and those go
 * through the same surrogate and statistics as the precomputed clusters (simulate/savings).
 */

/** Homes an answer is over, at most (as many as a precomputed cluster). */
export const PROFILE_SAMPLES = 400;
/** Fewer matching homes than this after PROFILE_MAX_DRAWS draws: too rare to estimate. */
export const PROFILE_MIN_MATCHES = 50;
/** Draws per request at most, which bounds a request's work whatever the features. */
export const PROFILE_MAX_DRAWS = 4_000;
const BATCH = 400;

export type MatchingHomes =
  | { supported: true; samples: SampledHome[]; drawn: number }
  | {
      supported: false;
      reason: 'implausible_combination' | 'unsupported_location' | 'too_few_matches';
      message: string;
    };

/** A 64-bit seed from text: the same request draws the same homes. */
const seedOf = (text: string): bigint =>
  BigInt(`0x${createHash('sha256').update(text).digest('hex').slice(0, 16)}`);

/** Draws the county's homes batch by batch and keeps those `matches` accepts, until enough or the bound. */
export function drawMatchingHomes(
  county: RemCountyRow,
  conditions: SampleConditions,
  matches: (home: Home) => boolean,
  seedText: string,
): MatchingHomes {
  const samples: SampledHome[] = [];
  let drawn = 0;
  for (let batch = 0; samples.length < PROFILE_SAMPLES && drawn < PROFILE_MAX_DRAWS; batch++) {
    const result: SampleResult = sampleHomes(
      samplingCountyOf(county),
      conditions,
      BATCH,
      seedOf(`${seedText}|${batch}`),
    );
    if (!result.supported) return result;
    drawn += BATCH;
    for (const sample of result.samples) {
      if (samples.length < PROFILE_SAMPLES && matches(sample.home)) samples.push(sample);
    }
  }
  if (samples.length < PROFILE_MIN_MATCHES) {
    return {
      supported: false,
      reason: 'too_few_matches',
      message: `${samples.length} of ${drawn} homes drawn match the building features`,
    };
  }
  return { supported: true, samples, drawn };
}

export interface ProfileInputs {
  county: RemCountyRow;
  rates: readonly EnergyRate[];
  factors: readonly EmissionFactor[];
  surrogate: Predictor;
}

/** A profile's answer, or why there is none (the route turns each into its 400). */
export type ProfileResult =
  { answer: ClusterAnswer } | { notApplicable: true } | Exclude<MatchingHomes, { supported: true }>;

/** What a worker thread needs to answer a profile: the body and the pinned snapshot's rows it reads. */
export interface ProfileJob extends Omit<ProfileInputs, 'surrogate'> {
  body: RemProfileBody;
}

/**
 * A profile's job with only the rate and factor rows its state's prices are chosen from (fuelPricesFor
 * takes the first match of each, so the same rows in the same order give the same prices): a few rows
 * to copy to the thread instead of every state's.
 */
export function profileJob(
  body: RemProfileBody,
  county: RemCountyRow,
  rates: readonly EnergyRate[],
  factors: readonly EmissionFactor[],
): ProfileJob {
  return {
    body,
    county,
    rates: rates.filter((rate) => rate.state === county.state),
    factors: factors.filter((factor) => factor.region === county.state || factor.region === 'US'),
  };
}

/** Computes a profile's answer (on a profile thread when served: it is CPU-bound). */
export async function profileAnswer(
  body: RemProfileBody,
  { county, rates, factors, surrogate }: ProfileInputs,
): Promise<ProfileResult> {
  const conditions: SampleConditions = {
    heatingFuel: body.heating_fuel,
    ...(body.water_heater_fuel ? { waterHeaterFuel: body.water_heater_fuel } : {}),
  };
  const seedText = JSON.stringify([
    county.county_fips,
    body.heating_fuel,
    body.water_heater_fuel ?? null,
    body.building_profile.building_features,
  ]);
  const homes = drawMatchingHomes(
    county,
    conditions,
    profileMatcher(body.building_profile.building_features),
    seedText,
  );
  if (!homes.supported) return homes;
  const evaluation = await evaluateHomes(homes.samples, [body.upgrade], surrogate, {
    cluster: {
      cluster_id: 'profile',
      county_fips: county.county_fips,
      state: county.state,
      heating_fuel: body.heating_fuel,
      water_heater_fuel: body.water_heater_fuel ?? null,
    },
    prices: fuelPricesFor(county.state, rates, factors),
  });
  const lines: ClusterStatisticRow[] = evaluation.rows;
  return lines.length === 0 ? { notApplicable: true } : { answer: answerOfLines(lines) };
}
