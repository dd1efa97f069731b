import { z } from 'zod';
import { countyColumns } from './county-columns.ts';
import {
  healthImpactsRequestExample as request,
  healthImpactsResponseExample,
} from './health-api-examples.ts';
import {
  VALUE_OF_STATISTICAL_LIFE,
  healthUpgradeSchema,
  housingTypeSchema,
  sqftBinSchema,
  type HealthImpactCell,
} from './health-data.ts';
import { HEALTH_ESTIMATES } from './health-model.ts';
import { languageSchema } from './incentives/enums.ts';
import { DEFAULT_GRID_EMISSIONS, GRID_EMISSIONS, gridEmissionsSchema } from './rem-data.ts';

/**
 * Request and response of `POST /api/v2/etools/health-impacts` (the reference's v2 health-impacts call;
 * docs/health-api.md). Answers are assembled from per-snapshot sums rather than validated per
 * request, so they must match these shapes (a spec checks the example answer against them).
 */

/** Units of the value metric: dollars of the value of a statistical life's year. */
const USD_PER_YEAR = `usd_${VALUE_OF_STATISTICAL_LIFE.dollarYear}_per_year` as const;

/**
 * The metrics an answer can report, in the reference's names: the cell column each one sums (`column`: the
 * central estimate for deaths and their value), the column of its low estimate (`low`: mortality metrics
 * only), and its unit. Positive = avoided each year.
 */
export const HEALTH_METRICS = {
  avoided_premature_mortality_incidence: {
    column: 'deaths_avoided',
    low: 'deaths_avoided_low',
    units: 'deaths_per_year',
  },
  avoided_premature_mortality_value: {
    column: 'mortality_value_usd',
    low: 'mortality_value_usd_low',
    units: USD_PER_YEAR,
  },
  fine_particulate_matter: { column: 'pm25_kg_avoided', low: null, units: 'kg_per_year' },
  ammonia: { column: 'nh3_kg_avoided', low: null, units: 'kg_per_year' },
  nitrogen_oxides: { column: 'nox_kg_avoided', low: null, units: 'kg_per_year' },
  volatile_organic_compounds: { column: 'voc_kg_avoided', low: null, units: 'kg_per_year' },
  sulfur_dioxide: { column: 'so2_kg_avoided', low: null, units: 'kg_per_year' },
} as const satisfies Record<
  string,
  { column: keyof HealthImpactCell; low: keyof HealthImpactCell | null; units: string }
>;
export type HealthMetric = keyof typeof HEALTH_METRICS;
export const HEALTH_METRIC_NAMES = Object.keys(HEALTH_METRICS) as [HealthMetric, ...HealthMetric[]];
export const healthMetricSchema = z.enum(HEALTH_METRIC_NAMES);
const HEALTH_UNITS = ['deaths_per_year', USD_PER_YEAR, 'kg_per_year'] as const;

/**
 * What `group_by` accepts: the reference's v2 floor-area bins (an `in_sqft_bin` column) and housing type
 * (an `in_housing_type` column, as v1's `acs_housing_type`), either or both.
 */
export const HEALTH_GROUP_BYS = ['house_size_square_feet_binned', 'housing_type'] as const;
export type HealthGroupBy = (typeof HEALTH_GROUP_BYS)[number];

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
      .describe(
        'What to report; one row per metric, in the order given. The mortality metrics, deaths ' +
          '(`avoided_premature_mortality_incidence`) and their value (`avoided_premature_mortality_value`, ' +
          `${USD_PER_YEAR}), give the central estimate in \`impact\` and the low one in \`impact_low\`; the ` +
          'others are kilograms of a pollutant.',
      )
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
      .describe(
        '`house_size_square_feet_binned`: one row per floor-area bin, in an `in_sqft_bin` column; ' +
          '`housing_type`: one row per housing type (`single_family`: single-family and mobile homes; ' +
          '`multi_family`: buildings of 2 or more units), in an `in_housing_type` column. Either or both ' +
          '(rows then per bin × housing type); a group without households has no row.',
      )
      .meta({ example: request.group_by }),
    grid_emissions: gridEmissionsSchema
      .default(DEFAULT_GRID_EMISSIONS)
      .describe(
        'Which grid the power plants’ emissions from the added (or saved) electricity are counted on. ' +
          '`long_run` (default): the grid over a new appliance’s life (NREL Cambium 2024 mid-case: the ' +
          'region’s projected fossil and coal shares of generation over 2027–2041 applied to today’s NOx, ' +
          'SO2, PM2.5 and VOC rates); `current_average`: today’s grid (EPA eGRID 2023 averages of the ' +
          'state’s main subregion; PM2.5 and VOC a national rate). Emissions at homes are the same on both.',
      ),
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
    in_housing_type: housingTypeSchema.optional().describe('Only with group_by housing_type'),
    number_of_households: z
      .number()
      .int()
      .describe('Households the row covers (single-family and mobile homes, and multi-family households)'),
    metric: healthMetricSchema,
    impact: z
      .number()
      .describe(
        'Avoided each year, rounded to 2 decimals: positive = avoided, negative = increased (e.g. SO2 from ' +
          'the extra power generation). The nationwide effect of electrifying the row’s households. Deaths ' +
          `and their value by the central mortality estimate: ${HEALTH_ESTIMATES.central}.`,
      ),
    impact_low: z
      .number()
      .optional()
      .describe(
        'Mortality metrics only (deaths and their value): the same by the low mortality estimate, ' +
          `${HEALTH_ESTIMATES.low}; rounded to 2 decimals`,
      ),
    units: z.enum(HEALTH_UNITS),
    warnings: z
      .string()
      .nullable()
      .describe(
        `A caution when the row covers fewer than ${FEW_HOUSEHOLDS.toLocaleString('en-US')} households, else null`,
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
    estimates: z
      .object({
        central: z.string().describe('The study behind `impact` of mortality rows'),
        low: z.string().describe('The study behind `impact_low`'),
      })
      .describe('The two PM2.5 mortality estimates'),
    valuation: z
      .object({
        usd_per_death: z.number().describe('Value of a statistical life, rounded to the dollar'),
        dollar_year: z.number().int(),
      })
      .describe('What an avoided premature death is worth in `avoided_premature_mortality_value`'),
    grid_emissions: z
      .enum(GRID_EMISSIONS)
      .describe('The grid the power plants’ emissions were counted on (the request’s grid_emissions)'),
    statement: z.string().describe('What this estimate is and is not'),
  })
  .meta({ id: 'HealthImpactsModel' });
export type HealthModel = z.infer<typeof healthModelSchema>;

export const healthImpactsResponseSchema = z
  .object({
    data: z.array(healthImpactRowSchema),
    warnings: z
      .array(z.string())
      .describe(
        'Cautions about the answer as a whole, in the request’s language: when rows include multi-family ' +
          'households, that their fuel change is approximated from the county’s single-family homes',
      ),
    model: healthModelSchema,
  })
  .meta({
    id: 'HealthImpactsResponse',
    description:
      'Long-format rows ordered by state FIPS, county FIPS, upgrade, bin and housing type, then metric as requested',
    example: healthImpactsResponseExample,
  });

/** Avoided deaths are mapped as a rate: per this many households. */
export const RATE_HOUSEHOLDS = 100_000;

export const healthCountiesQuerySchema = z.object({
  upgrade: healthUpgradeSchema.describe('The REM upgrade offered to every household of each county'),
  language: languageSchema.default('en').describe('Language of error messages (en or es)'),
});
export type HealthCountiesQuery = z.infer<typeof healthCountiesQuerySchema>;

export const healthCountyRateSchema = z
  .object({
    ...countyColumns,
    number_of_households: z
      .number()
      .int()
      .describe(
        'Households the rollup counts in the county (single-family and mobile homes, and multi-family)',
      ),
    impact: z
      .number()
      .describe(
        'Premature deaths avoided a year (central estimate), rounded to 2 decimals: the `impact` the ' +
          'POST route answers for the county',
      ),
    impact_low: z.number().describe('The same by the low estimate: the POST route’s `impact_low`'),
    impact_per_100k_households: z
      .number()
      .describe(
        'impact ÷ number_of_households × 100,000, from the unrounded sum, rounded to 2 decimals (deaths ' +
          'per 100,000 households a year)',
      ),
    impact_low_per_100k_households: z.number().describe('The same for impact_low'),
  })
  .meta({ id: 'HealthCountyRate' });
export type HealthCountyRate = z.infer<typeof healthCountyRateSchema>;

export const healthCountiesResponseSchema = z
  .object({
    upgrade: healthUpgradeSchema,
    metric: z.literal('avoided_premature_mortality_incidence'),
    units: z.object({
      impact: z.literal('deaths_per_year'),
      impact_per_100k_households: z.literal('deaths_per_100k_households_per_year'),
    }),
    counties: z.array(healthCountyRateSchema).describe('Every county with health data, by FIPS'),
    model: healthModelSchema,
  })
  .meta({
    id: 'HealthCounties',
    description:
      'Avoided premature deaths of every county at once, as counts and per 100,000 households, both estimates',
  });
