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
import {
  REM_CLUSTERS,
  REM_COUNTIES,
  REM_EMISSION_FACTORS,
  REM_GRID_EMISSION_FACTORS,
} from '../../../data-lake/tables/rem.ts';
import {
  countyEmissionFactors,
  DEFAULT_GRID_EMISSIONS,
  GRID_EMISSIONS,
  type GridEmissions,
  type RemCountyRow,
} from '../../../schemas/rem-data.ts';
import {
  countyHealthCells,
  emissionFactorsFor,
  type DeathsPerTonne,
  type HealthFactors,
  type HeatingFuelCluster,
} from '../../../model/health/county-rollup.ts';
import { shortHash } from '../../../simulate/work-units.ts';
import { gatherResults } from '../../../simulate/simulate-stage.ts';
import { offendersFinding } from '../audit-findings.ts';
import type { BuildContext, LakeTable } from '../lake-table.ts';

/**
 * The health rollup (lake table `health_county_impacts`): built in the simulate stage from the per-bin fuel
 * changes the workers published with each cluster whose water-heater fuel is drawn, gathered from the event
 * log like the REM statistics, then rolled up per county (model/health/county-rollup.ts) with the
 * county's heating-fuel shares and the deaths per tonne where its tonnes fall.
 */
export const healthImpactsTable: LakeTable<HealthImpactCell> = {
  ...HEALTH_COUNTY_IMPACTS,
  schemaVersion: 3,
  code: [import.meta.url],
  description:
    'Health rollup per county × upgrade × housing type × heating fuel × floor-area bin × grid basis (long_run, ' +
    'current_average): households, mean fuel change per household, kg of each pollutant avoided on site and at ' +
    'power plants, premature deaths avoided per year by the central (Pope et al. 2019) and low (Wu et al. 2020) ' +
    'estimates and their value (positive = avoided)',
  inputs: {
    tables: [
      REM_CLUSTERS,
      REM_COUNTIES,
      REM_EMISSION_FACTORS,
      REM_GRID_EMISSION_FACTORS,
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
    const { emissionFactors, gridFactors, damageFactors, factorsOf } = await readFactors(ctx);
    const versions = {
      factors_version: shortHash([...emissionFactors, ...gridFactors]),
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
  const isHealthPollutant = (f: { pollutant: string }) =>
    (HEALTH_POLLUTANTS as readonly string[]).includes(f.pollutant);
  const emissionFactors = (await ctx.table(REM_EMISSION_FACTORS)).filter(isHealthPollutant);
  const gridFactors = (await ctx.table(REM_GRID_EMISSION_FACTORS)).filter(isHealthPollutant);
  const damageFactors = await ctx.table(HEALTH_DAMAGE_FACTORS);
  const places = new Map(
    (await ctx.table(HEALTH_PLACE_DAMAGE_FACTORS)).map((f) => [
      `${f.sector}/${f.county_fips ?? f.state}/${f.pollutant}`,
      { central: f.deaths_per_tonne, low: f.deaths_per_tonne_low },
    ]),
  );
  // Per state × grid region (the counties of one share their factors), on each grid basis.
  const byPlace = new Map<string, Record<GridEmissions, ReturnType<typeof emissionFactorsFor>>>();
  const emissionsOf = (county: Pick<RemCountyRow, 'state' | 'grid_region'>) => {
    const place = `${county.state}/${county.grid_region}`;
    let resolved = byPlace.get(place);
    if (!resolved) {
      const onBasis = (basis: GridEmissions) =>
        emissionFactorsFor(county.state, countyEmissionFactors(county, basis, emissionFactors, gridFactors));
      byPlace.set(
        place,
        (resolved = { long_run: onBasis('long_run'), current_average: onBasis('current_average') }),
      );
    }
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
    gridFactors,
    damageFactors,
    factorsOf: (county: Pick<RemCountyRow, 'county_fips' | 'state' | 'grid_region'>): HealthFactors => {
      const emissions = emissionsOf(county);
      return {
        // On-site factors are the fuels' own, the same on both bases.
        onsiteKgPerUnit: emissions[DEFAULT_GRID_EMISSIONS].factors.onsiteKgPerUnit,
        powerKgPerKwh: {
          long_run: emissions.long_run.factors.powerKgPerKwh,
          current_average: emissions.current_average.factors.powerKgPerKwh,
        },
        deathsPerTonne: {
          residential_combustion: deathsAt('residential_combustion', county.county_fips),
          electricity_generation: deathsAt('electricity_generation', county.state),
        },
      };
    },
    /** What a county's state × grid region has no factor of, on each basis (counted as zero). */
    missingOf: (county: Pick<RemCountyRow, 'state' | 'grid_region'>) =>
      GRID_EMISSIONS.flatMap((basis) =>
        emissionsOf(county)[basis].missing.map(
          (what) => `${county.state}/${county.grid_region} ${basis}: ${what}`,
        ),
      ),
  };
}

async function auditHealthImpacts(rows: HealthImpactCell[], ctx: BuildContext): Promise<AuditFinding[]> {
  const table = HEALTH_COUNTY_IMPACTS.name;
  const counties = new Map((await ctx.table(REM_COUNTIES)).map((c) => [c.county_fips, c]));
  const households = new Map<string, number>();
  for (const r of rows) {
    const key = `${r.county_fips} ${r.upgrade} ${r.grid_emissions}`;
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
  // On-site kilograms are the same on both bases: summed on the default's cells.
  const onsite = new Map<string, number>();
  for (const r of rows) {
    if (r.grid_emissions !== DEFAULT_GRID_EMISSIONS) continue;
    for (const p of HEALTH_POLLUTANTS) {
      for (const key of [`${r.upgrade} ${p}`, `${r.county_fips} ${r.upgrade} ${p}`])
        onsite.set(key, (onsite.get(key) ?? 0) + r[`onsite_${p}_kg_avoided`]);
    }
  }
  const risesIn = (national: boolean) =>
    [...onsite]
      .filter(([key, kg]) => kg < 0 && /^\d{5} /.test(key) !== national)
      .map(([key, kg]) => `${key}: ${Math.round(-kg)} kg more`);
  const { missingOf } = await readFactors(ctx);
  const places = new Map<string, RemCountyRow>();
  for (const r of rows) {
    const county = counties.get(r.county_fips);
    if (county) places.set(`${county.state}/${county.grid_region}`, county);
  }
  const missing = [...places.keys()].sort().flatMap((place) => missingOf(places.get(place)!));
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
      'onsite_falls_nationally',
      'error',
      'upgrades and pollutants whose on-site emissions rise nationally (every upgrade removes or cuts fossil use)',
      risesIn(true),
    ),
    ...offendersFinding(
      table,
      'onsite_rises_in_county',
      'warning',
      'counties where an upgrade raises on-site emissions of a pollutant (a heat pump water heater beside a fossil furnace, or surrogate noise)',
      risesIn(false),
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
