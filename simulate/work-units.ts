import { createHash } from 'node:crypto';
import {
  clusterId,
  countyEmissionFactors,
  DEFAULT_GRID_EMISSIONS,
  type ClusterKey,
  type CountyProfile,
  type EmissionFactor,
  type EnergyRate,
  type GridEmissionFactor,
} from '../schemas/rem-data.ts';
import type { RemWorkUnit } from '../schemas/rem-stage.ts';
import { FUELS } from '../schemas/rem.ts';
import { hashSeed } from '../model/random.ts';
import { fuelPricesFor, type FuelPrices } from '../model/savings/fuel-prices.ts';
import { codeVersionOf } from './simulate-code.ts';
import type { ClusterRun } from './run-work-unit.ts';

/**
 * The simulate stage's work: one unit per cluster (a county × heating fuel × water-heater fuel, given or
 * not), self-contained (county, prices, sample count, seed, versions) so any worker anywhere can run it, and
 * fingerprinted so an unchanged unit is never run twice (the NREL buildstockbatch pattern: fixed,
 * idempotent jobs keyed by their inputs, gathered afterwards).
 */

export interface ModelIdentity {
  /** model_version of the model card. */
  version: string;
  /** SHA-256 of the ONNX file. */
  sha256: string;
}

export interface PlanOptions {
  samples: number;
  model: ModelIdentity;
  /** SHA-256 (hex) of the code that runs a unit (simulateCodeHash). */
  code: string;
  /** Which of a county's clusters to plan (default: all 20). */
  include?: (county: CountyProfile, cluster: ClusterKey) => boolean;
}

/** The 20 clusters of a county: 4 heating fuels × (water-heater fuel not given, or one of 4). */
export function clusterKeysOf(countyFips: string): ClusterKey[] {
  return FUELS.flatMap((heating_fuel) =>
    [null, ...FUELS].map((water_heater_fuel) => ({
      county_fips: countyFips,
      heating_fuel,
      water_heater_fuel,
    })),
  );
}

/**
 * Mixed into every cluster's seed. Changing it redraws every sample home, so it is not a version: it keeps
 * the value it had when seeds were salted with the sampler's hand-bumped version, so the homes drawn (and
 * the pinned results) stay as they were. Changed code is caught by the units' code hash instead.
 */
const CLUSTER_SEED_SALT = 'rem-housing-stock-2026.11.2';

/** The cluster's seed: the same cluster always draws the same homes (REM notes §5.5). */
export const clusterSeed = (id: string): bigint => hashSeed(`${id}|${CLUSTER_SEED_SALT}`);

/** What simulating a cluster takes: the stage's units and the API's on-demand clusters are made by this alone. */
export function clusterRun<County extends CountyProfile>(
  county: County,
  cluster: ClusterKey,
  prices: FuelPrices,
  samples: number,
): ClusterRun & { county: County } {
  const id = clusterId(cluster);
  return { cluster_id: id, cluster, county, prices, samples, seed: clusterSeed(id).toString() };
}

/**
 * The stage's units of the counties' clusters, priced with each county's state rates and its CO2e factors
 * on the default grid basis (the precomputed answers are the default's; another basis is computed on
 * request).
 */
export function planWorkUnits(
  counties: readonly (CountyProfile & { grid_region: string } & Record<string, unknown>)[],
  rates: readonly EnergyRate[],
  factors: readonly EmissionFactor[],
  gridFactors: readonly GridEmissionFactor[],
  options: PlanOptions,
): RemWorkUnit[] {
  const byPlace = new Map<string, { prices: FuelPrices; rates: string; factors: string }>();
  const placeInputs = (county: { state: string; grid_region: string }) => {
    const place = `${county.state}/${county.grid_region}`;
    let inputs = byPlace.get(place);
    if (!inputs) {
      const placeFactors = countyEmissionFactors(county, DEFAULT_GRID_EMISSIONS, factors, gridFactors);
      inputs = {
        prices: fuelPricesFor(county.state, rates, placeFactors),
        rates: shortHash(rates.filter((r) => r.state === county.state)),
        factors: shortHash(placeFactors.filter((f) => f.pollutant === 'co2e')),
      };
      byPlace.set(place, inputs);
    }
    return inputs;
  };
  const sorted = [...counties].sort((a, b) =>
    a.county_fips < b.county_fips ? -1 : a.county_fips > b.county_fips ? 1 : 0,
  );
  return sorted.flatMap((county) => {
    const clusters = clusterKeysOf(county.county_fips).filter(
      (cluster) => options.include?.(county, cluster) ?? true,
    );
    if (clusters.length === 0) return [];
    const inputs = placeInputs(county);
    return clusters.map((cluster): RemWorkUnit => {
      const unit = {
        ...clusterRun(county, cluster, inputs.prices, options.samples),
        versions: {
          code: codeVersionOf(options.code),
          model: options.model.version,
          rates: inputs.rates,
          factors: inputs.factors,
        },
      };
      const fingerprint = createHash('sha256')
        .update(JSON.stringify({ unit, model: options.model.sha256, code: options.code }))
        .digest('hex');
      return { ...unit, fingerprint };
    });
  });
}

/** 12 hex digits of the SHA-256 of records in a stable order: a short version of a set of inputs. */
export function shortHash(records: readonly object[]): string {
  const lines = records.map((r) => JSON.stringify(r)).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 12);
}
