import { z } from 'zod';
import { authorityTypeSchema, geographyTypeSchema } from '../../schemas/incentives/enums.ts';
import {
  amiTerritoryRecordSchema,
  amiZctaRecordSchema,
  authorityRecordSchema,
  dataPartnerRecordSchema,
  evChargerTractRecordSchema,
  evChargerZctaRecordSchema,
  geoGroupRecordSchema,
  geographyRecordSchema,
  incentiveRecordSchema,
  loanProgramRecordSchema,
  povertyLevelRecordSchema,
  programRecordSchema,
  taxBracketRecordSchema,
  zctaGeographyRecordSchema,
  zipRecordSchema,
  zipUtilityRecordSchema,
} from '../../schemas/incentives/records.ts';
import { byState, whole, type TableContract } from './table-contract.ts';
import { tableRef } from './table-ref.ts';

/** The incentives domain's lake tables: the normalized record tables for analysts, and the two serving tables. */

/** The federal (IRA) rows have no state: they are the `US` partition. */
const STATE_OR_US = "coalesce(state, 'US')";

/** An incentive's amount of one type, as a number (dollars, or a percentage as a fraction). */
const amountOfType = (type: string) =>
  `CASE WHEN json_extract_string(amount, '$.type') = '${type}' ` +
  `THEN TRY_CAST(json_extract_string(amount, '$.number') AS DOUBLE) END`;

/**
 * A quarter of a state's incentives gone is more than an upstream update removes; the amounts' medians
 * catch a unit error (cents for dollars, 30 for 0.3); the optional fields usually filled catch a renamed field.
 */
const INCENTIVES_CONTRACT: TableContract = {
  key: ['id'],
  partition: STATE_OR_US,
  maxDrop: 0.25,
  watchNulls: ['more_info_url', 'start_date', 'low_income'],
  measures: {
    'dollar amount': amountOfType('dollar_amount'),
    'percent amount': amountOfType('percent'),
    'dollars per unit': amountOfType('dollars_per_unit'),
    'amount maximum': "TRY_CAST(json_extract_string(amount, '$.maximum') AS DOUBLE)",
  },
};

export const INCENTIVES = tableRef('incentives', incentiveRecordSchema, INCENTIVES_CONTRACT);

/** Programs, with the federal (IRA) ones, whose state is null. */
export const programRowSchema = programRecordSchema.extend({
  state: programRecordSchema.shape.state.nullable(),
});
export const INCENTIVE_PROGRAMS = tableRef('incentive_programs', programRowSchema, {
  key: ['id'],
  partition: STATE_OR_US,
  maxDrop: 0.25,
});
export const INCENTIVE_AUTHORITIES = tableRef(
  'incentive_authorities',
  authorityRecordSchema,
  byState(['state', 'id'], 0.25),
);
// Prerequisites nest recursively; the column holds them as JSON.
export const INCENTIVE_RELATIONSHIPS = tableRef(
  'incentive_relationships',
  z.object({
    state: z.string(),
    prerequisites: z.record(z.string(), z.unknown()).optional(),
    exclusions: z.record(z.string(), z.unknown()).optional(),
    combinations: z.array(z.unknown()).optional(),
  }),
  byState(['state'], 0),
);
export const GEO_GROUPS = tableRef('geo_groups', geoGroupRecordSchema, byState(['state', 'id'], 0.25));
// One column holds the type-specific thresholds as JSON.
export const LOW_INCOME_THRESHOLDS = tableRef(
  'low_income_thresholds',
  z.object({
    id: z.string(),
    type: z.enum(['hhsize', 'county-hhsize', 'filing-status', 'ami-percentage', 'fpl-percentage']),
    source_url: z.string(),
    description: z.string().optional(),
    thresholds: z.record(z.string(), z.unknown()),
  }),
  whole(['id'], 0.25),
);
export const POVERTY_LEVELS = tableRef('poverty_levels', povertyLevelRecordSchema, whole(['table'], 0));
export const TAX_BRACKETS = tableRef(
  'tax_brackets',
  taxBracketRecordSchema,
  whole(['filing_status', 'income_min'], 0.25),
);
export const DATA_PARTNERS = tableRef(
  'data_partners',
  dataPartnerRecordSchema,
  byState(['state', 'id'], 0.5),
);
export const LOAN_PROGRAMS = tableRef('loan_programs', loanProgramRecordSchema, {
  key: ['id'],
  partition: STATE_OR_US,
  maxDrop: 0.25,
});
export const ZIPS = tableRef('zips', zipRecordSchema, byState(['zip'], 0.1));
export const GEOGRAPHIES = tableRef(
  'geographies',
  geographyRecordSchema,
  // Utilities are geographies (their territories): a state's utilities going is a hold.
  byState(['id'], 0.25),
);
export const ZCTA_GEOGRAPHIES = tableRef(
  'zcta_geographies',
  zctaGeographyRecordSchema,
  whole(['zcta', 'geography_id'], 0.1),
);
export const UTILITY_ZIPS = tableRef(
  'utility_zips',
  zipUtilityRecordSchema,
  whole(['zip', 'geography_id'], 0.25),
);
export const AMI_ZCTA = tableRef('ami_zcta', amiZctaRecordSchema, whole(['zcta'], 0.1));
export const AMI_TERRITORY = tableRef(
  'ami_territory',
  amiTerritoryRecordSchema,
  byState(['state', 'zip'], 0.25),
);
export const EV_CHARGER_ZCTA = tableRef('ev_charger_zcta', evChargerZctaRecordSchema, whole(['zcta'], 0.1));
export const EV_CHARGER_TRACT = tableRef(
  'ev_charger_tract',
  evChargerTractRecordSchema,
  byState(['tract_geoid'], 0.1),
);

export const servingLocationRowSchema = z.object({
  zip: z.string(),
  /** The ZCTA the ZIP is (or belongs to): geographies, AMI and 30C are by ZCTA. */
  zcta: z.string(),
  /** The state with the largest share of the ZCTA. */
  state: z.string(),
  city: z.string(),
  county_fips: z.string().nullable(),
  /** Every state, county and custom geography overlapping the ZCTA, largest share first. */
  geographies: z.array(
    z.object({
      id: z.number().int(),
      type: geographyTypeSchema,
      county_fips: z.string().nullable(),
      proportion: z.number(),
    }),
  ),
  /** 80% and 150% of area median income for household sizes 1–8; null when no AMI data covers it. */
  ami_80: z.array(z.number()).nullable(),
  ami_150: z.array(z.number()).nullable(),
  /** Federal EV charger credit (30C) eligibility; null when no 30C data covers it. */
  ev_charger_eligible: z.boolean().nullable(),
  /** Keys of the electric / gas utility territories serving the ZCTA in its state, predominant first. */
  electric_utilities: z.array(z.string()),
  gas_utilities: z.array(z.string()),
});
export type ServingLocationRow = z.infer<typeof servingLocationRowSchema>;

/** Every ZIP the calculator answers for, with what its answers need of the ZCTA it is in. */
export const SERVING_LOCATIONS = tableRef(
  'incentives_serving_locations',
  servingLocationRowSchema,
  byState(['zip'], 0.1),
);

/** The catalog row of the federal incentives; state rows use their two-letter code. */
export const FEDERAL_SCOPE = 'US';

const localized = z.object({ en: z.string(), es: z.string().optional() });
const logo = z.object({ src: z.string(), width: z.number(), height: z.number() });

export const servingProgramSchema = z.object({
  name: localized,
  url: localized,
  authority: z.string().nullable(),
  authority_type: authorityTypeSchema,
  description: z.string().optional(),
  items: z.array(z.string()).optional(),
});
export const servingAuthoritySchema = z.object({
  name: z.string(),
  geography_ids: z.array(z.number().int()),
  logo: logo.optional(),
});
const servingIncentiveSchema = incentiveRecordSchema.omit({ state: true, position: true });

export const servingStateRowSchema = z.object({
  state: z.string(),
  /** Candidates in file order. */
  incentives: z.array(servingIncentiveSchema),
  programs: z.record(z.string(), servingProgramSchema),
  /** Authority type → authority id → authority. */
  authorities: z.record(z.string(), z.record(z.string(), servingAuthoritySchema)),
  /** Utility territory key → its geography id and name, for the state's electric and gas utilities. */
  electric_utilities: z.record(z.string(), z.object({ id: z.number().int(), name: z.string() })),
  gas_utilities: z.record(z.string(), z.object({ id: z.number().int(), name: z.string() })),
  /** Geo group id → geography ids. */
  geo_groups: z.record(z.string(), z.array(z.number().int())),
  prerequisites: z.record(z.string(), z.unknown()),
  /** Superseding incentive id → the ids it excludes. */
  exclusions: z.record(z.string(), z.array(z.string())),
  data_partners: z.record(z.string(), z.object({ name: z.string(), logo: logo.optional() })),
  /** Whether a gas utility can change which incentives apply (MA, or any gas utility program). */
  gas_utility_affects_incentives: z.boolean(),
  /** The state's custom geographies (towns, districts) as polygons, to place a geocoded address. */
  custom_areas: z.array(
    z.object({
      id: z.number().int(),
      polygons: z.array(z.array(z.array(z.tuple([z.number(), z.number()])))),
    }),
  ),
});
export type ServingStateRow = z.infer<typeof servingStateRowSchema>;

/** Per state (and the federal scope), the catalog the calculator answers from. */
export const SERVING_STATES = tableRef(
  'incentives_serving_states',
  servingStateRowSchema,
  byState(['state'], 0),
);
