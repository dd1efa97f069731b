import { z } from 'zod';
import {
  healthImpactsRequestExample as request,
  healthImpactsResponseExample,
} from './health-api-examples.ts';
import { healthUpgradeSchema, sqftBinSchema, type HealthImpactCell } from './health-data.ts';
import { languageSchema } from './incentives/enums.ts';

/**
 * Request and response of `POST /api/v2/etools/health-impacts` (the reference's v2 health-impacts call;
 * README, "Health impacts API"). Answers are assembled from per-snapshot sums rather than validated per
 * request, so they must match these shapes (a spec checks the example answer against them).
 */

/**
 * The metrics an answer can report, in the reference's names: the cell column each one sums, and its unit.
 * Positive = avoided each year.
 */
export const HEALTH_METRICS = {
  avoided_premature_mortality_incidence: { column: 'deaths_avoided', units: 'deaths_per_year' },
  fine_particulate_matter: { column: 'pm25_kg_avoided', units: 'kg_per_year' },
  ammonia: { column: 'nh3_kg_avoided', units: 'kg_per_year' },
  nitrogen_oxides: { column: 'nox_kg_avoided', units: 'kg_per_year' },
  volatile_organic_compounds: { column: 'voc_kg_avoided', units: 'kg_per_year' },
  sulfur_dioxide: { column: 'so2_kg_avoided', units: 'kg_per_year' },
} as const satisfies Record<string, { column: keyof HealthImpactCell; units: string }>;
export type HealthMetric = keyof typeof HEALTH_METRICS;
export const HEALTH_METRIC_NAMES = Object.keys(HEALTH_METRICS) as [HealthMetric, ...HealthMetric[]];
export const healthMetricSchema = z.enum(HEALTH_METRIC_NAMES);

/** The one `group_by` the reference's v2 shows: floor-area bins, reported in an `in_sqft_bin` column. */
export const HEALTH_GROUP_BYS = ['house_size_square_feet_binned'] as const;

/** Rows with fewer households than this carry a warning (the reference's threshold). */
export const FEW_HOUSEHOLDS = 5_000;

/** Most counties one state has (Texas, 254): a longer county list cannot be all distinct and valid. */
export const MAX_COUNTIES_PER_STATE = 254;

const distinctList = <T extends z.ZodType>(item: T, max: number) =>
  z
    .array(item)
    .min(1)
    .max(max)
    .refine((list) => new Set(list).size === list.length, { message: 'must not repeat a value' });

export const healthImpactsRequestSchema = z
  .strictObject({
    metrics: distinctList(healthMetricSchema, HEALTH_METRIC_NAMES.length)
      .describe('What to report; one row per metric, in the order given')
      .meta({ example: request.metrics }),
    upgrade: distinctList(healthUpgradeSchema, healthUpgradeSchema.options.length)
      .describe(
        'The REM upgrades to evaluate, each offered to every household in scope. With more than one, rows ' +
          'carry an `upgrade` column (in the order given); results of different upgrades must not be added.',
      )
      .meta({ example: request.upgrade }),
    state_fips: distinctList(z.string().regex(/^\d{2}$/), 60)
      .optional()
      .describe(
        'Two-digit state FIPS codes of contiguous states or DC (Alaska, Hawaii and territories are not ' +
          'modelled). Absent: every contiguous state and DC, one row each.',
      )
      .meta({ example: request.state_fips }),
    county_fips: distinctList(z.string().regex(/^(\d{3}|\*)$/), MAX_COUNTIES_PER_STATE)
      .optional()
      .describe(
        'Three-digit county FIPS codes within the one state of `state_fips`, or ["*"] for all its counties. ' +
          'Rows then carry `county_fips` and `county_name`.',
      )
      .meta({ example: request.county_fips }),
    group_by: distinctList(z.enum(HEALTH_GROUP_BYS), HEALTH_GROUP_BYS.length)
      .optional()
      .describe('`house_size_square_feet_binned`: one row per floor-area bin, in an `in_sqft_bin` column')
      .meta({ example: request.group_by }),
    language: languageSchema.default('en').describe('Language of error messages and row warnings (en or es)'),
  })
  .meta({ id: 'HealthImpactsRequest' });
export type HealthImpactsRequest = z.infer<typeof healthImpactsRequestSchema>;

export const healthImpactRowSchema = z
  .object({
    state_abbreviation: z.string().length(2),
    county_fips: z.string().length(3).optional().describe('Only when counties are requested'),
    county_name: z.string().optional().describe('Only when counties are requested'),
    upgrade: healthUpgradeSchema.optional().describe('Only when more than one upgrade is requested'),
    in_sqft_bin: sqftBinSchema.optional().describe('Only with group_by house_size_square_feet_binned'),
    number_of_households: z.number().int().describe('Households in scope the row covers'),
    metric: healthMetricSchema,
    impact: z
      .number()
      .describe(
        'Avoided each year, rounded to 2 decimals: positive = avoided, negative = increased (e.g. SO2 from ' +
          'the extra power generation). The nationwide effect of electrifying the row’s households.',
      ),
    units: z.enum(['deaths_per_year', 'kg_per_year']),
    warnings: z
      .string()
      .nullable()
      .describe(
        `A caution when the row covers fewer than ${FEW_HOUSEHOLDS.toLocaleString('en-US')} households`,
      ),
  })
  .meta({ id: 'HealthImpactRow', description: 'One geography × group × metric, columns in this order' });

export const healthModelSchema = z
  .object({
    versions: z
      .object({
        code: z
          .string()
          .describe(
            'Hash (12 hex digits) of the simulate code that drew and evaluated the sample homes: sampler and its tables, features, physics, statistics',
          ),
        model: z.string().describe('The surrogate that evaluated the sample homes'),
        emission_factors: z.string().describe('Short hash of the emission-factor records used'),
        damage_factors: z.string().describe('Short hash of the damage-factor records used'),
      })
      .describe('As the rollup recorded them (several, comma-separated, if its cells differ)'),
    sources: z
      .array(z.object({ name: z.string(), kind: z.string(), version: z.string() }))
      .describe('The ingested sources the rollup was computed from, with the version of each'),
    statement: z.string().describe('What this estimate is and is not'),
  })
  .meta({ id: 'HealthImpactsModel' });
export type HealthModel = z.infer<typeof healthModelSchema>;

export const healthImpactsResponseSchema = z
  .object({ data: z.array(healthImpactRowSchema), model: healthModelSchema })
  .meta({
    id: 'HealthImpactsResponse',
    description:
      'Long-format rows ordered by state FIPS, county FIPS, upgrade and bin, then metric as requested',
    example: healthImpactsResponseExample,
  });
