import { z } from 'zod';
import { languageSchema } from './incentives/enums.ts';
import { FUELS, fuelSchema, upgradeSchema, type Upgrade } from './rem.ts';
import { RESULT_FUELS } from './rem-data.ts';

/**
 * Requests and responses of the REM API (`/api/v1/rem/*`). The `Savings` shape is the reference's (see
 * README, REM API), with `estimate_type: "county_level"` beside its `address_level`/`puma_level`, the basis
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
      .enum(['combustion', 'average', 'marginal'])
      .describe('On-site combustion (fossil fuels), or a grid average or marginal rate (electricity)'),
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
        '`county_level`: homes drawn for the county and fuels (this service, GET /rem/address); ' +
          '`address_level`: drawn to match a given building profile (POST /rem/profile). The reference ' +
          'also answers `puma_level`.',
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
