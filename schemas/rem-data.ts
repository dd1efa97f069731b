import { z } from 'zod';
import { countyFipsSchema, stateCodeSchema, zipCodeSchema } from './codes.ts';
import { recordNames, recordSchema, type RecordSchema } from './record-schema.ts';
import { climateZoneSchema, fuelSchema, upgradeSchema } from './rem.ts';

/**
 * The REM's data contracts between stages: the location, rate and emission-factor records ingest reads,
 * and the per-cluster results the simulate stage writes. Snake_case, since analysts query them as lake
 * columns.
 */

const share = z.number().min(0).max(1);

/** One county (or county equivalent) of the contiguous US and DC, as the sampler and the rollups see it. */
export const countyProfileSchema = z
  .object({
    county_fips: countyFipsSchema,
    state: stateCodeSchema,
    name: z.string().min(1),
    /** Occupied housing units (all structure types). */
    households: z.number().int().nonnegative(),
    /** Share of housing units that are mobile homes. */
    mobile_home_share: share,
    /** Share of housing units in structures of 2 or more units (outside the REM universe). */
    multi_unit_share: share,
    climate_zone: climateZoneSchema,
    latitude: z.number().min(18).max(50),
    longitude: z.number().min(-125).max(-66),
  })
  .strict();
export type CountyProfile = z.infer<typeof countyProfileSchema>;

/**
 * The main heating fuel of a county's occupied housing units (ACS table B25040), as shares of them. `other`
 * holds the categories no column has: bottled, tank or LP gas (propane), wood, coal, solar, other fuels and no
 * fuel. A FIPS ending in 000 is a whole state (a source that has no counties for it).
 */
export const countyHeatingFuelSchema = z
  .object({
    county_fips: countyFipsSchema,
    occupied_units: z.number().int().positive(),
    natural_gas: share,
    electricity: share,
    fuel_oil: share,
    other: share,
  })
  .strict()
  .refine((r) => Math.abs(r.natural_gas + r.electricity + r.fuel_oil + r.other - 1) <= 0.001, {
    message: 'the four shares must sum to 1',
  });
export type CountyHeatingFuel = z.infer<typeof countyHeatingFuelSchema>;

/** Shares of homes by main heating fuel, over the four fuels the model knows (summing to 1). */
export const heatingFuelSharesSchema = z
  .object({ electricity: share, natural_gas: share, fuel_oil: share, propane: share })
  .strict()
  .refine((s) => Math.abs(s.electricity + s.natural_gas + s.fuel_oil + s.propane - 1) <= 1e-9, {
    message: 'the shares must sum to 1',
  });
export type HeatingFuelShares = z.infer<typeof heatingFuelSharesSchema>;

/** Where a 5-digit ZIP lies: its state and the county holding it (or most of it). */
export const zipCountySchema = z
  .object({
    zip: zipCodeSchema,
    state: stateCodeSchema,
    county_fips: countyFipsSchema,
    latitude: z.number(),
    longitude: z.number(),
  })
  .strict();
export type ZipCounty = z.infer<typeof zipCountySchema>;

/** A state's residential price of one fuel: a volumetric rate and a fixed monthly charge. */
export const energyRateSchema = z
  .object({
    state: stateCodeSchema,
    fuel: fuelSchema,
    /** $ per unit: kWh (electricity), therm (natural gas), gallon (fuel oil, propane). */
    volumetric_rate: z.number().positive(),
    volumetric_unit: z.enum(['$/kWh', '$/therm', '$/gallon']),
    /** Charged every month the fuel is present in the home's baseline; 0 where none applies. */
    fixed_monthly: z.number().nonnegative(),
    year: z.number().int().min(2000).max(2100),
    publisher: z.string().min(1),
    /** How the published figure was turned into these two numbers (e.g. how a fixed charge was split off). */
    method: z.string().min(1),
  })
  .strict();
export type EnergyRate = z.infer<typeof energyRateSchema>;

export const POLLUTANTS = ['co2e', 'pm25', 'nh3', 'nox', 'voc', 'so2'] as const;
export const pollutantSchema = z.enum(POLLUTANTS);
export type Pollutant = z.infer<typeof pollutantSchema>;

/**
 * What kind of rate an emission factor is: on-site `combustion` of a fossil fuel; for electricity, a grid
 * `average` or `marginal` rate of today's grid, the `long_run_marginal` rate of the grid over the equipment's
 * life (NREL Cambium's levelized LRMER), or today's average rate carried along the grid's projected path
 * (`long_run_average`).
 */
export const EMISSION_FACTOR_BASES = [
  'combustion',
  'average',
  'marginal',
  'long_run_marginal',
  'long_run_average',
] as const;

/**
 * One emission factor. `region` is a state code, an eGRID subregion or "US". `basis` says what kind of rate
 * it is (EMISSION_FACTOR_BASES), so every answer that uses it can say which.
 */
export const emissionFactorSchema = z
  .object({
    region: z.string().min(2),
    fuel: fuelSchema,
    pollutant: pollutantSchema,
    value: z.number(),
    /** Per unit of delivered energy, e.g. kg/kWh, kg/therm, kg/gallon, lb/MMBtu. */
    unit: z.string().min(1),
    basis: z.enum(EMISSION_FACTOR_BASES),
    year: z.number().int().min(1990).max(2100),
    publisher: z.string().min(1),
  })
  .strict();
export type EmissionFactor = z.infer<typeof emissionFactorSchema>;

/**
 * Which grid the electricity of an answer is counted on. `long_run` (the default): the grid over a new
 * appliance's life, NREL Cambium 2024's mid-case levelized long-run marginal CO2e rate of the county's
 * region and today's NOx, SO2, PM2.5 and VOC rates carried along the region's projected fossil generation;
 * `current_average`: today's eGRID averages of the state's main subregion.
 */
export const GRID_EMISSIONS = ['long_run', 'current_average'] as const;
export const gridEmissionsSchema = z.enum(GRID_EMISSIONS);
export type GridEmissions = z.infer<typeof gridEmissionsSchema>;
export const DEFAULT_GRID_EMISSIONS: GridEmissions = 'long_run';

/** A county's generation and emissions assessment (GEA) region of NREL's Cambium and ReEDS models. */
export const countyGridRegionSchema = z
  .object({
    county_fips: countyFipsSchema,
    /** The ReEDS balancing area holding the county (`p1` … `p134`). */
    balancing_area: z.string().regex(/^p\d+$/),
    grid_region: z.string().regex(/^[A-Za-z_]+$/),
  })
  .strict();
export type CountyGridRegion = z.infer<typeof countyGridRegionSchema>;

/**
 * One month of a region's long-run marginal CO2e rate, hour by hour (kg per MWh used, distribution losses
 * included), as NREL Cambium publishes it: the same 24 values stand for every day of the month.
 */
export const lrmerProfileSchema = z
  .object({
    grid_region: z.string().regex(/^[A-Za-z_]+$/),
    month: z.number().int().min(1).max(12),
    hourly_kg_per_mwh: z.array(z.number().nonnegative()).length(24),
  })
  .strict();
export type LrmerProfile = z.infer<typeof lrmerProfileSchema>;

/** A region's projected generation in one model year of a Cambium scenario, MWh, in total and by fossil technology. */
export const gridGenerationSchema = z
  .object({
    grid_region: z.string().regex(/^[A-Za-z_]+$/),
    year: z.number().int().min(2020).max(2100),
    generation_mwh: z.number().positive(),
    coal_mwh: z.number().nonnegative(),
    gas_cc_mwh: z.number().nonnegative(),
    gas_ct_mwh: z.number().nonnegative(),
    /** Oil-gas-steam units. */
    o_g_s_mwh: z.number().nonnegative(),
  })
  .strict();
export type GridGeneration = z.infer<typeof gridGenerationSchema>;

/**
 * A Cambium region's long-run figures (lake table `rem_grid_regions`): its levelized long-run marginal CO2e
 * rate (the mean of the 8,760 hourly values, and of the heating season's), and how much of today's fossil
 * share of its generation, and of its coal share, is left on average over the same years.
 */
export const gridRegionRowSchema = z
  .object({
    grid_region: z.string().regex(/^[A-Za-z_]+$/),
    lrmer_co2e_kg_per_mwh: z.number().nonnegative(),
    /** November to March: the hours most of a heat pump's added load falls in. */
    lrmer_heating_season_co2e_kg_per_mwh: z.number().nonnegative(),
    /** The levelized fossil share of the region's generation over the years, ÷ its share in the first model year. */
    fossil_share_ratio: z.number().nonnegative(),
    /** The same for coal; null when the region has no coal generation in the first model year. */
    coal_share_ratio: z.number().nonnegative().nullable(),
    first_year: z.number().int(),
    start_year: z.number().int(),
    years: z.number().int().positive(),
    discount_rate: z.number().nonnegative(),
  })
  .strict();
export type GridRegionRow = z.infer<typeof gridRegionRowSchema>;

/**
 * An electricity emission factor of the counties of one state and grid region, on one grid basis (lake table
 * `rem_grid_emission_factors`): `region` is the state, so it stands in for the state's own row wherever
 * factors are chosen (countyEmissionFactors); `method` says how it was made.
 */
export const gridEmissionFactorSchema = emissionFactorSchema
  .extend({
    grid_region: z.string().regex(/^[A-Za-z_]+$/),
    grid_emissions: gridEmissionsSchema,
    method: z.string().min(1),
  })
  .strict();
export type GridEmissionFactor = z.infer<typeof gridEmissionFactorSchema>;

/**
 * The emission factors of a county on a grid basis: the on-site factors of the fossil fuels as the table has
 * them, and the electricity factors of its state and grid region on that basis (with no national fallback:
 * a pollutant without a grid row is counted as no emission, which the tables' audits report).
 */
export function countyEmissionFactors(
  county: { state: string; grid_region: string },
  basis: GridEmissions,
  factors: readonly EmissionFactor[],
  gridFactors: readonly GridEmissionFactor[],
): EmissionFactor[] {
  return [
    ...factors.filter((f) => f.fuel !== 'electricity' && (f.region === county.state || f.region === 'US')),
    ...gridFactors.filter(
      (g) => g.region === county.state && g.grid_region === county.grid_region && g.grid_emissions === basis,
    ),
  ];
}

/**
 * The factor that applies to a state: its own row if the table has one, else the national ("US") row.
 * Undefined when neither exists.
 */
export function emissionFactorFor(
  factors: readonly EmissionFactor[],
  state: string,
  fuel: EmissionFactor['fuel'],
  pollutant: Pollutant,
): EmissionFactor | undefined {
  const matching = factors.filter((f) => f.fuel === fuel && f.pollutant === pollutant);
  return matching.find((f) => f.region === state) ?? matching.find((f) => f.region === 'US');
}

/** A REM address cluster: every address of the county with these fuels gets the same sample homes. */
export const clusterKeySchema = z.object({
  county_fips: countyFipsSchema,
  heating_fuel: fuelSchema,
  /** null: the caller did not give one, so the sampler draws it. */
  water_heater_fuel: fuelSchema.nullable(),
});
export type ClusterKey = z.infer<typeof clusterKeySchema>;

/** `25025|natural_gas|-`: the cluster key as one string (event-log key, lake column, seed text). */
export const clusterId = (key: ClusterKey): string =>
  `${key.county_fips}|${key.heating_fuel}|${key.water_heater_fuel ?? '-'}`;

export const RESULT_FUELS = ['electricity', 'natural_gas', 'fuel_oil', 'propane', 'total'] as const;
export const resultFuelSchema = z.enum(RESULT_FUELS);
export type ResultFuel = z.infer<typeof resultFuelSchema>;

export const SCENARIOS = ['baseline', 'upgrade', 'delta'] as const;
export const scenarioSchema = z.enum(SCENARIOS);

/** Mean, median, 20th and 80th percentile of one per-home distribution. */
const statistics = <Prefix extends string>(prefix: Prefix) =>
  ({
    [`${prefix}_mean`]: z.number(),
    [`${prefix}_median`]: z.number(),
    [`${prefix}_p20`]: z.number(),
    [`${prefix}_p80`]: z.number(),
  }) as Record<`${Prefix}_${'mean' | 'median' | 'p20' | 'p80'}`, z.ZodNumber>;

/**
 * One line of a cluster's answer (lake table `rem_cluster_statistics`): for one upgrade, one fuel (or the
 * total) and one scenario, the statistics of energy (in `energy_unit`), emissions (kgCO2e) and cost ($)
 * over the cluster's sample homes the upgrade applies to. A `baseline` upgrade has baseline lines only.
 */
export const clusterStatisticRowSchema = z
  .object({
    cluster_id: z.string(),
    county_fips: countyFipsSchema,
    state: stateCodeSchema,
    heating_fuel: fuelSchema,
    water_heater_fuel: fuelSchema.nullable(),
    upgrade: upgradeSchema,
    fuel: resultFuelSchema,
    scenario: scenarioSchema,
    energy_unit: z.enum(['kWh', 'therm', 'gallon']),
    ...statistics('energy'),
    ...statistics('emissions'),
    ...statistics('cost'),
    num_samples: z.number().int().nonnegative(),
    num_excluded_samples: z.number().int().nonnegative(),
  })
  .strict();
export type ClusterStatisticRow = z.infer<typeof clusterStatisticRowSchema>;

/**
 * Two-digit FIPS codes of the contiguous states and DC (U.S. Census Bureau, ANSI INCITS 38), the REM's
 * territory: GeoNames postal codes name a state by its code and a county by 3 digits, and this joins them.
 */
export const CONTIGUOUS_STATE_FIPS: Readonly<Record<string, string>> = {
  AL: '01',
  AZ: '04',
  AR: '05',
  CA: '06',
  CO: '08',
  CT: '09',
  DE: '10',
  DC: '11',
  FL: '12',
  GA: '13',
  ID: '16',
  IL: '17',
  IN: '18',
  IA: '19',
  KS: '20',
  KY: '21',
  LA: '22',
  ME: '23',
  MD: '24',
  MA: '25',
  MI: '26',
  MN: '27',
  MS: '28',
  MO: '29',
  MT: '30',
  NE: '31',
  NV: '32',
  NH: '33',
  NJ: '34',
  NM: '35',
  NY: '36',
  NC: '37',
  ND: '38',
  OH: '39',
  OK: '40',
  OR: '41',
  PA: '42',
  RI: '44',
  SC: '45',
  SD: '46',
  TN: '47',
  TX: '48',
  UT: '49',
  VT: '50',
  VA: '51',
  WA: '53',
  WV: '54',
  WI: '55',
  WY: '56',
};

/** The other states and territories GeoNames lists with county codes: their ZIPs are known, not modelled. */
export const OTHER_STATE_FIPS: Readonly<Record<string, string>> = {
  AK: '02',
  HI: '15',
  PR: '72',
};

/** Volumetric unit of each fuel's rate, and of each fossil fuel's emission factors (per delivered unit). */
export const FUEL_UNITS = {
  electricity: 'kWh',
  natural_gas: 'therm',
  fuel_oil: 'gallon',
  propane: 'gallon',
} as const;

/** The REM's source records on the event log, each on its own topic (named like the schema). */
export const REM_RECORD_SCHEMAS = {
  county: recordSchema('rem.county', countyProfileSchema),
  zipCounty: recordSchema('rem.zip-county', zipCountySchema),
  energyRate: recordSchema('rem.energy-rate', energyRateSchema),
  emissionFactor: recordSchema('rem.emission-factor', emissionFactorSchema),
  countyHeatingFuel: recordSchema('rem.county-heating-fuel', countyHeatingFuelSchema),
  countyGridRegion: recordSchema('rem.county-grid-region', countyGridRegionSchema),
  lrmerProfile: recordSchema('rem.lrmer-profile', lrmerProfileSchema),
  gridGeneration: recordSchema('rem.grid-generation', gridGenerationSchema),
};
export const REM_RECORDS = recordNames(REM_RECORD_SCHEMAS);
export const remRecordSchemas: RecordSchema[] = Object.values(REM_RECORD_SCHEMAS);

/** Where a county's heating-fuel shares come from: its own ACS row, its state's ACS row, or the sampler's state table. */
export const HEATING_FUEL_BASES = ['county', 'state', 'state_table'] as const;

export const remCountyRowSchema = countyProfileSchema.extend({
  /** The weather station standing for the county's climate (model/climate/stations.ts). */
  station_id: z.string().regex(/^[a-z0-9-]+$/),
  /** Main heating fuel of the county's single-family and mobile homes (the REM universe), over the four fuels. */
  heating_fuel_shares: heatingFuelSharesSchema,
  /** The same for its households in buildings of 2 or more units. */
  multi_family_heating_fuel_shares: heatingFuelSharesSchema,
  heating_fuel_basis: z.enum(HEATING_FUEL_BASES),
  /** Its Cambium generation and emissions assessment region (NREL ReEDS), whose long-run rates it takes. */
  grid_region: z.string().regex(/^[A-Za-z_]+$/),
});
export type RemCountyRow = z.infer<typeof remCountyRowSchema>;
