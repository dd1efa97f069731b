import { FUELS, type Fuel } from '../../schemas/rem.ts';
import type { RemModelInfo, RemServerVersion } from '../../schemas/rem-api.ts';
import type { RemModel, RemModelVersions } from '../../schemas/rem-model.ts';
import {
  CONTIGUOUS_STATE_FIPS,
  countyEmissionFactors,
  GRID_EMISSIONS,
  type EmissionFactor,
  type EnergyRate,
  type GridEmissionFactor,
  type GridEmissions,
  type RemCountyRow,
} from '../../schemas/rem-data.ts';
import { readTable, type SnapshotReader } from '../../data-lake/snapshot-reader.ts';
import {
  REM_CLUSTERS,
  REM_CLUSTER_STATISTICS,
  REM_COUNTIES,
  REM_EMISSION_FACTORS,
  REM_ENERGY_RATES,
  REM_GRID_EMISSION_FACTORS,
  REM_ZIP_COUNTIES,
} from '../../data-lake/tables/rem.ts';
import { ClusterStatisticsStore, loadClusterSupport } from './cluster-statistics-store.ts';
import { OnDemandClusters } from './on-demand-clusters.ts';
import { encodedFragment } from '../http/json-bytes.ts';
import { zipStatesOf, type ZipStates } from '../geocoding/zip-states.ts';

/** The lake tables the REM routes answer from. */
export const REM_TABLES = [
  REM_CLUSTERS,
  REM_CLUSTER_STATISTICS,
  REM_ZIP_COUNTIES,
  REM_COUNTIES,
  REM_ENERGY_RATES,
  REM_EMISSION_FACTORS,
  REM_GRID_EMISSION_FACTORS,
] as const;

/** The 48 contiguous states and DC: the REM's universe, as the reference's. */
export const CONTIGUOUS_STATES: ReadonlySet<string> = new Set(Object.keys(CONTIGUOUS_STATE_FIPS));

/** What every REM answer says about itself (one paragraph; the model card has the details). */
export const REM_STATEMENT =
  'A model-derived estimate, not a measurement, an audit or a quote. The statistics are over sample homes ' +
  'drawn from public housing-stock tables for the county and the fuels given (not this particular home), ' +
  'each evaluated with and without the upgrade by an ONNX surrogate of this project’s own simplified ' +
  'building-physics simulator over a synthetic typical weather year; costs use state-average energy prices ' +
  'and emissions the factors listed. It is not ResStock, not NREL’s or Rewiring America’s model, and not ' +
  'calibrated to metered data or bills: use it to compare upgrades and their order of magnitude, not to ' +
  'predict a bill. Do not add up several upgrades’ results: they interact.';

/** What the REM routes hold per snapshot: the data (null while the snapshot has no REM tables). */
export interface RemSnapshot {
  data: RemData | null;
  serverVersionJson: string;
}

/** A snapshot's REM data, ready to answer from. */
export interface RemData {
  /** Cluster id → whether its fuels are plausible for its county; absent: not precomputed in this snapshot. */
  clusterSupport: ReadonlyMap<string, boolean>;
  statistics: ClusterStatisticsStore;
  /** The clusters not precomputed, computed by the REM model when asked for (and the last few kept). */
  onDemand: OnDemandClusters;
  /**
   * Sample homes per cluster the snapshot's clusters were drawn with (its REM_SAMPLES, from the manifest), so
   * a cluster computed on demand matches the precomputed ones whatever this process's own setting; null for a
   * snapshot published before the manifest recorded settings.
   */
  samples: number | null;
  /** ZIP → county FIPS. */
  zipCounties: ReadonlyMap<string, string>;
  /** ZIP → state, to tell an address whose ZIP is in another state than it names. */
  zipStates: ZipStates;
  /** County FIPS → its row (with its weather station, for drawing homes on demand). */
  counties: ReadonlyMap<string, RemCountyRow>;
  /**
   * Every county in FIPS order with the start of its row of the county map (`{"county_fips":…,
   * "county_name":…,"state_abbreviation":…,"supported":`), encoded once per snapshot.
   */
  countyMapRows: readonly { county: RemCountyRow; start: Buffer }[];
  rates: readonly EnergyRate[];
  factors: readonly EmissionFactor[];
  /** The electricity factors of each state × grid region on each grid basis. */
  gridFactors: readonly GridEmissionFactor[];
  /**
   * `placeKey(county, basis)` → `"rates":{…},"emissions_factors":{…},"grid_emissions":"…"`, encoded: what an
   * answer for a county says of its prices and factors.
   */
  ratesAndFactorsJson: ReadonlyMap<string, Buffer>;
  /** `"model":{…}`, encoded. */
  modelJson: Buffer;
}

/** What every answer says of the model that answers: its versions and what the estimate is. */
export const remModelInfo = (versions: RemModelVersions): RemModelInfo => ({
  ...versions,
  statement: REM_STATEMENT,
});

const pick = <T>(rows: readonly T[], match: (row: T) => boolean): T | undefined => rows.find(match);

/** kg → kgCO2e in a CO2-equivalent factor's unit (`kg/therm` → `kgCO2e/therm`). */
const co2eUnit = (unit: string) => unit.replace(/^kg\//, 'kgCO2e/');

/** The counties of one state and grid region share their rates and factors on a grid basis. */
export const placeKey = (county: Pick<RemCountyRow, 'state' | 'grid_region'>, basis: GridEmissions): string =>
  `${county.state}/${county.grid_region}/${basis}`;

/**
 * A county's rates (its state's volumetric rate and monthly fixed charge per fuel) and CO2e factors on a grid
 * basis (countyEmissionFactors; a fossil fuel's own in the state where the table has one, else the national
 * one) as the pre-encoded members of an answer, and the basis.
 */
export function ratesAndFactorsJson(
  county: Pick<RemCountyRow, 'state' | 'grid_region'>,
  basis: GridEmissions,
  rates: readonly EnergyRate[],
  allFactors: readonly EmissionFactor[],
  gridFactors: readonly GridEmissionFactor[],
): string {
  const { state } = county;
  const factors = countyEmissionFactors(county, basis, allFactors, gridFactors);
  const ratesByFuel: Record<string, unknown[]> = {};
  const factorsByFuel: Record<string, unknown> = {};
  for (const fuel of FUELS) {
    const rate = pick(rates, (r) => r.state === state && r.fuel === fuel);
    ratesByFuel[fuel] = rate
      ? [
          { value: rate.volumetric_rate, unit: rate.volumetric_unit, rate_type: 'volumetric' },
          { value: rate.fixed_monthly, unit: '$/month', rate_type: 'fixed' },
        ]
      : [];
    const factor = factorFor(factors, fuel, state);
    factorsByFuel[fuel] = { value: factor.value, unit: co2eUnit(factor.unit), basis: factor.basis };
  }
  return `"rates":${JSON.stringify(ratesByFuel)},"emissions_factors":${JSON.stringify(factorsByFuel)},"grid_emissions":${JSON.stringify(basis)}`;
}

function factorFor(factors: readonly EmissionFactor[], fuel: Fuel, state: string): EmissionFactor {
  const co2e = factors.filter((f) => f.fuel === fuel && f.pollutant === 'co2e');
  const factor = pick(co2e, (f) => f.region === state) ?? pick(co2e, (f) => f.region === 'US');
  if (!factor) throw new Error(`rem_emission_factors: no CO2e factor for ${fuel} in ${state} or the US`);
  return factor;
}

/**
 * Loads a snapshot's REM tables. A snapshot without them (published before the REM stages ran) still
 * loads, so the incentives keep serving from it: the REM routes then answer 503.
 */
export async function loadRemSnapshot(snapshot: SnapshotReader, model: RemModel): Promise<RemSnapshot> {
  const serverVersion: RemServerVersion = {
    ...model.versions,
    code_version: snapshot.manifest.codeVersion,
  };
  const tables = REM_TABLES.map((t) => t.name);
  const complete = tables.every((table) => table in snapshot.manifest.tables);
  return {
    data: complete ? await loadRemData(snapshot, model) : null,
    serverVersionJson: JSON.stringify(serverVersion),
  };
}

export function snapshotSamples(snapshot: Pick<SnapshotReader, 'manifest'>): number | null {
  const samples = snapshot.manifest.tables[REM_CLUSTERS.name]?.settings?.REM_SAMPLES;
  return typeof samples === 'number' ? samples : null;
}

/** Each county's row start of the county map (see RemData.countyMapRows), in FIPS order. */
const countyMapRows = (counties: readonly RemCountyRow[]) =>
  counties
    .toSorted((a, b) => a.county_fips.localeCompare(b.county_fips))
    .map((county) => {
      const { county_fips, name, state } = county;
      const start = JSON.stringify({
        county_fips,
        county_name: name,
        state_abbreviation: state,
        supported: 0,
      });
      return { county, start: encodedFragment(start.slice(0, -2)) };
    });

async function loadRemData(snapshot: SnapshotReader, model: RemModel): Promise<RemData> {
  const counties = await readTable(snapshot, REM_COUNTIES);
  const zips = await readTable(snapshot, REM_ZIP_COUNTIES);
  const rates = await readTable(snapshot, REM_ENERGY_RATES);
  const factors = await readTable(snapshot, REM_EMISSION_FACTORS);
  const gridFactors = await readTable(snapshot, REM_GRID_EMISSION_FACTORS);
  const clusterSupport = await loadClusterSupport(snapshot);
  const statistics = await ClusterStatisticsStore.load(snapshot);
  const places = new Map(counties.map((c) => [`${c.state}/${c.grid_region}`, c]));
  return {
    clusterSupport,
    statistics,
    onDemand: new OnDemandClusters(model),
    samples: snapshotSamples(snapshot),
    zipCounties: new Map(zips.map((z) => [z.zip, z.county_fips])),
    zipStates: zipStatesOf(zips),
    counties: new Map(counties.map((c) => [c.county_fips, c])),
    countyMapRows: countyMapRows(counties),
    rates,
    factors,
    gridFactors,
    ratesAndFactorsJson: new Map(
      [...places.values()].flatMap((county) =>
        GRID_EMISSIONS.map((basis) => [
          placeKey(county, basis),
          encodedFragment(ratesAndFactorsJson(county, basis, rates, factors, gridFactors)),
        ]),
      ),
    ),
    modelJson: encodedFragment(`"model":${JSON.stringify(remModelInfo(model.versions))}`),
  };
}
