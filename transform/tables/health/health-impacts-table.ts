import {
  HEALTH_POLLUTANTS,
  type EmissionSector,
  type HealthImpactCell,
  type HealthPollutant,
} from '../../../schemas/health-data.ts';
import type { AuditFinding } from '../../../schemas/lake.ts';
import { REM_RESULTS_TOPIC, type RemClusterResult, type RemClusterRow } from '../../../schemas/rem-stage.ts';
import {
  HEALTH_COUNTY_IMPACTS,
  HEALTH_DAMAGE_FACTORS,
  HEALTH_PLACE_DAMAGE_FACTORS,
} from '../../../data-lake/tables/health.ts';
import { REM_CLUSTERS, REM_COUNTIES, REM_EMISSION_FACTORS } from '../../../data-lake/tables/rem.ts';
import { type RemCountyRow } from '../../../schemas/rem-data.ts';
import {
  countyHealthCells,
  emissionFactorsFor,
  type DeathsPerTonne,
  type HealthFactors,
  type HeatingFuelCluster,
} from '../../../simulate/health/county-rollup.ts';
import { shortHash } from '../../../simulate/stage/work-units.ts';
import { gatherResults } from '../../../simulate/stage/simulate-stage.ts';
import { offendersFinding } from '../audit-findings.ts';
import type { BuildContext, LakeTable } from '../lake-table.ts';

/**
 * The health rollup (lake table `health_county_impacts`): built in the simulate stage from the per-bin fuel
 * changes the workers published with each cluster whose water-heater fuel is drawn, gathered from the event
 * log like the REM statistics, then rolled up per county (simulate/health/county-rollup.ts) with the
 * county's heating-fuel shares and the deaths per tonne where its tonnes fall.
 */
export const healthImpactsTable: LakeTable<HealthImpactCell> = {
  ...HEALTH_COUNTY_IMPACTS,
  schemaVersion: 2,
  code: [import.meta.url],
  description:
    'Health rollup per county × upgrade × housing type × heating fuel × floor-area bin: households, mean fuel ' +
    'change per household, kg of each pollutant avoided on site and at power plants, premature deaths avoided ' +
    'per year by the central (Pope et al. 2019) and low (Wu et al. 2020) estimates and their value (positive = avoided)',
  inputs: {
    tables: [
      REM_CLUSTERS,
      REM_COUNTIES,
      REM_EMISSION_FACTORS,
      HEALTH_DAMAGE_FACTORS,
      HEALTH_PLACE_DAMAGE_FACTORS,
    ],
    topics: [REM_RESULTS_TOPIC],
  },
  async build(ctx) {
    const clusters = (await ctx.table(REM_CLUSTERS)).filter(
      (c) => c.supported && c.water_heater_fuel === null,
    );
    // Only each result's health bins are kept, not its statistics.
    const healthBins = new Map<string, NonNullable<RemClusterResult['health_bins']>>();
    await gatherResults(
      await ctx.eventLog(),
      new Map(clusters.map((c) => [c.cluster_id, c.fingerprint])),
      (result) => void (result.health_bins && healthBins.set(result.cluster_id, result.health_bins)),
    );
    const counties = new Map((await ctx.table(REM_COUNTIES)).map((c) => [c.county_fips, c]));
    const { emissionFactors, damageFactors, factorsOf } = await readFactors(ctx);
    const versions = {
      factors_version: shortHash(emissionFactors),
      damage_factors_version: shortHash(damageFactors),
    };
    const byCounty = new Map<string, { clusters: HeatingFuelCluster[]; row: RemClusterRow }>();
    for (const row of clusters) {
      const bins = healthBins.get(row.cluster_id);
      if (!bins) throw new Error(`no health bins on the log for cluster ${row.cluster_id}`);
      const entry = byCounty.get(row.county_fips) ?? { clusters: [], row };
      entry.clusters.push({ heating_fuel: row.heating_fuel, bins });
      byCounty.set(row.county_fips, entry);
    }
    return [...byCounty.keys()].sort().flatMap((fips) => {
      const { clusters: fuelClusters, row } = byCounty.get(fips)!;
      const county = counties.get(fips);
      if (!county) throw new Error(`county ${fips} of the clusters is not in the county table`);
      const shares = {
        single_family: county.heating_fuel_shares,
        multi_family: county.multi_family_heating_fuel_shares,
      };
      return countyHealthCells(county, fuelClusters, shares, factorsOf(county), {
        code_version: row.code_version,
        model_version: row.model_version,
        ...versions,
      });
    });
  },
  audit: auditHealthImpacts,
};

/** The health pollutants' emission factors, the damage factors, and each county's factors from them. */
async function readFactors(ctx: BuildContext) {
  const emissionFactors = (await ctx.table(REM_EMISSION_FACTORS)).filter((f) =>
    (HEALTH_POLLUTANTS as readonly string[]).includes(f.pollutant),
  );
  const damageFactors = await ctx.table(HEALTH_DAMAGE_FACTORS);
  const places = new Map(
    (await ctx.table(HEALTH_PLACE_DAMAGE_FACTORS)).map((f) => [
      `${f.sector}/${f.county_fips ?? f.state}/${f.pollutant}`,
      { central: f.deaths_per_tonne, low: f.deaths_per_tonne_low },
    ]),
  );
  const byState = new Map<string, ReturnType<typeof emissionFactorsFor>>();
  const emissionsOf = (state: string) => {
    let resolved = byState.get(state);
    if (!resolved) byState.set(state, (resolved = emissionFactorsFor(state, emissionFactors)));
    return resolved;
  };
  const deathsAt = (sector: EmissionSector, place: string) =>
    Object.fromEntries(
      HEALTH_POLLUTANTS.map((p) => {
        const factor = places.get(`${sector}/${place}/${p}`);
        if (!factor)
          throw new Error(`${HEALTH_PLACE_DAMAGE_FACTORS.name} has no ${sector} ${p} factor for ${place}`);
        return [p, factor];
      }),
    ) as Record<HealthPollutant, DeathsPerTonne>;
  return {
    emissionFactors,
    damageFactors,
    factorsOf: (county: Pick<RemCountyRow, 'county_fips' | 'state'>): HealthFactors => ({
      ...emissionsOf(county.state).factors,
      deathsPerTonne: {
        residential_combustion: deathsAt('residential_combustion', county.county_fips),
        electricity_generation: deathsAt('electricity_generation', county.state),
      },
    }),
    missingOf: (state: string) => emissionsOf(state).missing,
  };
}

async function auditHealthImpacts(rows: HealthImpactCell[], ctx: BuildContext): Promise<AuditFinding[]> {
  const table = HEALTH_COUNTY_IMPACTS.name;
  const counties = new Map((await ctx.table(REM_COUNTIES)).map((c) => [c.county_fips, c]));
  const households = new Map<string, number>();
  for (const r of rows) {
    const key = `${r.county_fips} ${r.upgrade}`;
    households.set(key, (households.get(key) ?? 0) + r.households);
  }
  const scopeMismatch = [...households]
    .filter(([key, sum]) => {
      const county = counties.get(key.slice(0, 5));
      return !county || sum !== county.households;
    })
    .map(([key, sum]) => `${key}: ${sum}`);
  const notFinite = rows
    .filter((r) => Object.values(r).some((v) => typeof v === 'number' && !Number.isFinite(v)))
    .map((r) => `${r.county_fips} ${r.upgrade} ${r.housing_type} ${r.heating_fuel} ${r.sqft_bin}`);
  const moreOnsite = rows
    .filter((r) => HEALTH_POLLUTANTS.some((p) => r[`onsite_${p}_kg_avoided`] < 0))
    .map((r) => `${r.county_fips} ${r.upgrade} ${r.housing_type} ${r.heating_fuel} ${r.sqft_bin}`);
  const { missingOf } = await readFactors(ctx);
  const missing = [...new Set(rows.map((r) => r.state))]
    .sort()
    .flatMap((state) => missingOf(state).map((what) => `${state}: ${what}`));
  return [
    ...offendersFinding(
      table,
      'households_sum_to_scope',
      'error',
      "(county, upgrade) whose households do not sum to the county's households",
      scopeMismatch,
    ),
    ...offendersFinding(table, 'finite', 'error', 'cells with a value that is not finite', notFinite),
    ...offendersFinding(
      table,
      'onsite_never_increases',
      'error',
      'cells where an electrification upgrade increases on-site emissions',
      moreOnsite,
    ),
    ...offendersFinding(
      table,
      'factor_missing',
      'warning',
      'factors neither the state nor the US has, counted as zero',
      missing,
    ),
  ];
}
