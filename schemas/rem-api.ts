import { z } from 'zod';
import { countyColumns } from './county-columns.ts';
import { languageSchema } from './incentives/enums.ts';
import { FUELS, fuelSchema, upgradeSchema, type Upgrade } from './rem.ts';
import {
  DEFAULT_GRID_EMISSIONS,
  EMISSION_FACTOR_BASES,
  GRID_EMISSIONS,
  gridEmissionsSchema,
  RESULT_FUELS,
} from './rem-data.ts';

/**
 * Requests and responses of the REM API (`/api/v1/rem/*`). The `Savings` shape is the reference's (see
 * docs/rem-api.md), with `estimate_type: "county_level"` beside its `address_level`/`puma_level`, the basis
 * of each emissions factor, and `model`: which model answered and what it is not. Answers are assembled
 * from the compact per-snapshot store rather than validated per request, so they must match these shapes.
 */

/**
 * Upgrades whose answer depends on the fuel of the water heater they replace: the caller must give it
 * (checked by the routes, which answer a localized 400 naming `water_heater_fuel`).
 */
export const UPGRADES_NEEDING_WATER_HEATER_FUEL: readonly Upgrade[] = ['water_heater__heat_pump_uef3.35'];

const savingsRequest = {
  upgrade: upgradeSchema.describe('The upgrade to evaluate (`baseline`: the home as it is)'),
  heating_fuel: fuelSchema.describe("The home's heating fuel"),
  water_heater_fuel: fuelSchema
    .optional()
    .describe(
      "The water heater's fuel; required for water_heater__heat_pump_uef3.35, else drawn by the model",
    ),
  grid_emissions: gridEmissionsSchema
    .default(DEFAULT_GRID_EMISSIONS)
    .describe(
      'Which grid electricity is counted on. `long_run` (default): the grid over a new appliance’s life, ' +
        'NREL Cambium 2024’s mid-case levelized long-run marginal CO2e rate of the county’s region ' +
        '(2027–2041); `current_average`: today’s grid, EPA eGRID 2023 averages of the state’s main ' +
        'subregion (computed on request: slower than the default)',
    ),
};

export const remAddressQuerySchema = z.object({
  address: z
    .string()
    .min(1)
    .max(500)
    .describe('A US street address in the contiguous states or DC, with its ZIP code'),
  ...savingsRequest,
  language: languageSchema.default('en').describe('Language of error messages (en or es)'),
});
export type RemAddressQuery = z.infer<typeof remAddressQuerySchema>;

export const quantitySchema = z.object({ value: z.number(), unit: z.string() }).meta({ id: 'Quantity' });

const metricStatisticsSchema = z
  .object({
    mean: quantitySchema,
    median: quantitySchema,
    percentile_20: quantitySchema,
    percentile_80: quantitySchema,
  })
  .meta({ id: 'MetricStatistics', description: 'Statistics of one per-home distribution' });

const impactMetricSchema = z
  .object({ energy: metricStatisticsSchema, emissions: metricStatisticsSchema, cost: metricStatisticsSchema })
  .meta({ id: 'ImpactMetric' });

const fuelSavingsSchema = z
  .object({
    baseline: impactMetricSchema,
    upgrade: impactMetricSchema.nullable().describe('null when upgrade=baseline'),
    delta: impactMetricSchema.nullable().describe('upgrade − baseline per home; null when upgrade=baseline'),
  })
  .meta({ id: 'FuelSavings' });

const fuelRateSchema = z
  .object({ value: z.number(), unit: z.string(), rate_type: z.enum(['fixed', 'volumetric']) })
  .meta({ id: 'FuelRate' });

const emissionsFactorSchema = z
  .object({
    value: z.number(),
    unit: z.string(),
    basis: z
      .enum(EMISSION_FACTOR_BASES)
      .describe(
        'On-site combustion (fossil fuels); for electricity, a rate of today’s grid (average or marginal) or ' +
          'of the grid over the appliance’s life (long_run_marginal: NREL Cambium’s levelized LRMER)',
      ),
  })
  .meta({ id: 'EmissionsFactor' });

export const ESTIMATE_TYPES = ['address_level', 'puma_level', 'county_level'] as const;

export const remModelInfoSchema = z
  .object({
    model_version: z.string().describe('The surrogate model that computed the statistics'),
    sampler_version: z.string().describe('The housing-stock tables the sample homes were drawn from'),
    statement: z.string().describe('What this estimate is and is not'),
  })
  .meta({ id: 'RemModel' });
export type RemModelInfo = z.infer<typeof remModelInfoSchema>;

const byFuel = <T extends z.ZodType>(fuels: readonly string[], value: T) =>
  z.object(Object.fromEntries(fuels.map((fuel) => [fuel, value])) as Record<string, T>);

export const savingsSchema = z
  .object({
    fuel_results: byFuel(RESULT_FUELS, fuelSavingsSchema),
    rates: byFuel(FUELS, z.array(fuelRateSchema)),
    emissions_factors: byFuel(FUELS, emissionsFactorSchema),
    grid_emissions: z
      .enum(GRID_EMISSIONS)
      .describe('The grid electricity’s emissions were counted on (the request’s grid_emissions)'),
    sampling_details: z.object({
      num_samples: z.number().int().describe('Sample homes the statistics are over'),
      num_excluded_samples: z
        .number()
        .int()
        .describe('Sample homes the upgrade does not apply to, left out of every statistic'),
    }),
    estimate_type: z
      .enum(ESTIMATE_TYPES)
      .describe(
        '`county_level`: homes drawn for the county and fuels (GET /rem/address, and POST ' +
          '/rem/profile with no building feature known); `address_level`: drawn to match a given ' +
          'building profile (POST /rem/profile). The reference also answers `puma_level`.',
      ),
    model: remModelInfoSchema,
  })
  .meta({ id: 'Savings' });

export const remServerVersionSchema = z
  .object({
    model_version: z.string(),
    sampler_version: z.string(),
    code_version: z
      .string()
      .describe('The git commit of the service and the pipeline that built the snapshot'),
  })
  .meta({ id: 'RemServerVersion' });
export type RemServerVersion = z.infer<typeof remServerVersionSchema>;

/** ResStock option values of the list-valued building features the profile route honours. */
export const BUILDING_TYPE_OPTIONS = [
  'Single-Family Detached',
  'Single-Family Attached',
  'Mobile Home',
  '2 Unit',
  '3 or 4 Unit',
  '5 to 9 Unit',
  '10 to 19 Unit',
  '20 to 49 Unit',
  '50 or more Unit',
] as const;
export const HEATING_TYPE_OPTIONS = [
  'Ducted Heating',
  'Non-Ducted Heating',
  'Ducted Heat Pump',
  'Non-Ducted Heat Pump',
  'None',
] as const;
export const COOLING_TYPE_OPTIONS = [
  'Central AC',
  'Room AC',
  'Ducted Heat Pump',
  'Non-Ducted Heat Pump',
  'None',
] as const;
export const ATTIC_TYPE_OPTIONS = [
  'Vented Attic',
  'Unvented Attic',
  'Finished Attic or Cathedral Ceilings',
  'None',
] as const;

const allowed = <T extends readonly [string, ...string[]]>(options: T, what: string) =>
  z
    .array(z.enum(options))
    .min(1)
    .max(options.length)
    .nullish()
    .describe(`${what}: the values it may have (ResStock options); null or absent = unknown`);

/**
 * What the caller knows of the building (the reference's `BuildingFeatures`, the features this service
 * honours): each known one constrains the sample homes. Other reference features are accepted and ignored.
 */
export const buildingFeaturesSchema = z
  .object({
    geometry_floor_area: z
      .number()
      .min(300)
      .max(10_000)
      .nullish()
      .describe('Conditioned floor area, ft²; sample homes within ±20 % match'),
    geometry_stories: z.number().int().min(1).max(3).nullish().describe('Stories above grade'),
    bedrooms: z.number().int().min(1).max(6).nullish(),
    vintage: z
      .number()
      .int()
      .min(1800)
      .max(2030)
      .nullish()
      .describe('Year built; sample homes of the same decade match (before 1940 counts as one decade)'),
    geometry_building_type_acs: allowed(BUILDING_TYPE_OPTIONS, 'Building type'),
    hvac_heating_type: allowed(HEATING_TYPE_OPTIONS, 'Heating system type'),
    hvac_cooling_type: allowed(COOLING_TYPE_OPTIONS, 'Cooling system type'),
    geometry_attic_type: allowed(ATTIC_TYPE_OPTIONS, 'Attic type'),
  })
  .meta({ id: 'BuildingFeatures' });
export type BuildingFeatures = z.infer<typeof buildingFeaturesSchema>;

// Strict at the top, as the health-impacts body: a misspelt field is a 400 naming it, not silently ignored.
export const remProfileBodySchema = z
  .strictObject({
    ...savingsRequest,
    building_profile: z
      .object({
        county: z
          .string()
          .regex(/^(G\d{2}0\d{3}0|\d{5})$/, 'must be a county GISJOIN (e.g. G4400070) or 5-digit FIPS code')
          .describe('The county: its GISJOIN (G + state FIPS + 0 + county FIPS + 0) or 5-digit FIPS code'),
        building_features: buildingFeaturesSchema.default({}),
      })
      .meta({ id: 'BuildingProfile' }),
    language: languageSchema.default('en').describe('Language of error messages (en or es)'),
  })
  .meta({ id: 'RemProfileRequest' });
export type RemProfileBody = z.infer<typeof remProfileBodySchema>;

/** The upgrades a county map can show: every one but `baseline` (whose change is nothing). */
const remChangeUpgradeSchema = upgradeSchema.exclude(['baseline']);

export const remCountiesQuerySchema = z.object({
  upgrade: remChangeUpgradeSchema.describe('The upgrade to evaluate'),
  heating_fuel: savingsRequest.heating_fuel,
  water_heater_fuel: savingsRequest.water_heater_fuel,
  language: languageSchema.default('en').describe('Language of error messages (en or es)'),
});
export type RemCountiesQuery = z.infer<typeof remCountiesQuerySchema>;

export const remCountyChangeSchema = z
  .object({
    ...countyColumns,
    supported: z
      .boolean()
      .describe('false when the fuels are too rare in the county to estimate (building_not_supported)'),
    num_samples: z.number().int().describe('Sample homes the medians are over (0: none, see num_excluded)'),
    num_excluded_samples: z.number().int().describe('Sample homes the upgrade does not apply to'),
    median_bill_change: z
      .number()
      .nullable()
      .describe(
        'Median change of the annual energy bill per home, all fuels ($/year, 4 decimals; negative = ' +
          'savings): `fuel_results.total.delta.cost.median` of GET /rem/address for the county. Null ' +
          'when not supported or the upgrade applies to none of its sample homes.',
      ),
    median_emissions_change: z
      .number()
      .nullable()
      .describe(
        'Median change of annual emissions per home, all fuels (kgCO2e/year, 4 decimals; negative = ' +
          'avoided): `fuel_results.total.delta.emissions.median` of GET /rem/address. Null as above.',
      ),
  })
  .meta({ id: 'RemCountyChange' });
export type RemCountyChange = z.infer<typeof remCountyChangeSchema>;

export const remCountiesResponseSchema = z
  .object({
    upgrade: remChangeUpgradeSchema,
    heating_fuel: fuelSchema,
    water_heater_fuel: fuelSchema.nullable(),
    units: z.object({
      median_bill_change: z.literal('$/year'),
      median_emissions_change: z.literal('kgCO2e/year'),
    }),
    counties: z
      .array(remCountyChangeSchema)
      .describe('Every county whose cluster for these fuels the snapshot precomputed, by FIPS'),
  })
  .meta({
    id: 'RemCounties',
    description:
      'The county medians of the precomputed clusters (those of REM_STATES): the numbers GET /rem/address ' +
      'answers for an address in each county, with the same fuels',
  });
export type RemCountiesResponse = z.infer<typeof remCountiesResponseSchema>;
