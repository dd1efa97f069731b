import { z } from 'zod';
import { stateCodeSchema, tractGeoidSchema, zipCodeSchema } from '../codes.ts';
import { recordNames, recordSchema, type RecordSchema } from '../record-schema.ts';
import {
  amountTypeSchema,
  amountUnitSchema,
  authorityTypeSchema,
  filingStatusSchema,
  geographyTypeSchema,
  itemSchema,
  ownerStatusSchema,
  paymentMethodSchema,
} from './enums.ts';

/**
 * Records of the Rewiring America open-data layout (data/*.json and the CSVs under scripts/). One record
 * per upstream entry, flattened with the context its file gave it (the state of a per-state file, the
 * position in the file where order is meaningful), so every record stands alone on the event log.
 */

/** Upstream text is keyed by language; English is always present. */
export const localizedSchema = z.object({ en: z.string(), es: z.string().optional() });
export type Localized = z.infer<typeof localizedSchema>;

/** `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, `YYYYH1|2` or `YYYYQ1-4` (day validity is not checked upstream either). */
export const incentiveDateSchema = z
  .string()
  .regex(/^\d{4}(H[12]|Q[1-4]|-(0[1-9]|1[0-2])(-(0[1-9]|1[0-9]|2[0-9]|3[01]))?)?$/);

const logoSchema = z.object({ src: z.string(), width: z.number(), height: z.number() });

export const amountSchema = z.object({
  type: amountTypeSchema,
  number: z.number(),
  maximum: z.number().optional(),
  minimum: z.number().optional(),
  representative: z.number().optional(),
  unit: amountUnitSchema.optional(),
});
export type Amount = z.infer<typeof amountSchema>;

export const incentiveRecordSchema = z.object({
  /** Two-letter state of the file it came from; null for the federal (IRA) incentives. */
  state: stateCodeSchema.nullable(),
  /** Index in its file: candidates are considered in file order. */
  position: z.number().int().nonnegative(),
  id: z.string().min(1),
  payment_methods: z.array(paymentMethodSchema).min(1),
  program: z.string().min(1),
  items: z.array(itemSchema).min(1),
  amount: amountSchema,
  owner_status: z.array(ownerStatusSchema).min(1),
  short_description: localizedSchema,
  url: localizedSchema,
  more_info_url: localizedSchema.optional(),
  start_date: incentiveDateSchema.optional(),
  end_date: incentiveDateSchema.optional(),
  low_income: z.string().optional(),
  eligible_geo_group: z.string().optional(),
  paused: z.boolean().optional(),
});
export type IncentiveRecord = z.infer<typeof incentiveRecordSchema>;

export const programRecordSchema = z.object({
  state: stateCodeSchema,
  position: z.number().int().nonnegative(),
  id: z.string().min(1),
  name: localizedSchema,
  url: localizedSchema,
  authority: z.string().nullable(),
  authority_type: authorityTypeSchema,
  description: z.string().optional(),
  items: z.array(itemSchema).optional(),
});
export type ProgramRecord = z.infer<typeof programRecordSchema>;

export const authorityRecordSchema = z.object({
  state: stateCodeSchema,
  authority_type: authorityTypeSchema,
  id: z.string().min(1),
  name: z.string().min(1),
  geography_ids: z.array(z.number().int()).min(1),
  logo: logoSchema.optional(),
});
export type AuthorityRecord = z.infer<typeof authorityRecordSchema>;

/** A prerequisite: an incentive id, or any/all of nested prerequisites. */
export type Prerequisite =
  string | { anyOf: Prerequisite[]; description?: string } | { allOf: Prerequisite[]; description?: string };
export const prerequisiteSchema: z.ZodType<Prerequisite> = z.lazy(() =>
  z.union([
    z.string().min(1),
    z.object({ anyOf: z.array(prerequisiteSchema).min(1), description: z.string().optional() }),
    z.object({ allOf: z.array(prerequisiteSchema).min(1), description: z.string().optional() }),
  ]),
);

export const relationshipsRecordSchema = z.object({
  state: stateCodeSchema,
  prerequisites: z.record(z.string(), prerequisiteSchema).optional(),
  /** Superseding id → the ids it excludes while it is eligible. */
  exclusions: z
    .record(
      z.string(),
      z.union([
        z.array(z.string()),
        z.object({ ids: z.array(z.string()), description: z.string().optional() }),
      ]),
    )
    .optional(),
  /** Combined maximums; kept for analysts, not applied by the calculation (as upstream). */
  combinations: z
    .array(
      z.object({
        ids: z.array(z.string()),
        max_value: z.number(),
        description: z.string().optional(),
      }),
    )
    .optional(),
});
export type RelationshipsRecord = z.infer<typeof relationshipsRecordSchema>;

export const geoGroupRecordSchema = z.object({
  state: stateCodeSchema,
  id: z.string().min(1),
  geographies: z.array(z.number().int()).min(1),
  description: z.string().optional(),
});
export type GeoGroupRecord = z.infer<typeof geoGroupRecordSchema>;

const hhsizeThresholdsSchema = z.record(z.string().regex(/^\d+$/), z.number());
const thresholdCommon = { id: z.string().min(1), source_url: z.string(), description: z.string().optional() };
export const lowIncomeThresholdRecordSchema = z.discriminatedUnion('type', [
  z.object({ ...thresholdCommon, type: z.literal('hhsize'), thresholds: hhsizeThresholdsSchema }),
  z.object({
    ...thresholdCommon,
    type: z.literal('county-hhsize'),
    /** County FIPS (or "other") → household size → income limit. */
    thresholds: z.record(z.string(), hhsizeThresholdsSchema),
  }),
  z.object({
    ...thresholdCommon,
    type: z.literal('filing-status'),
    thresholds: z.partialRecord(filingStatusSchema, z.tuple([z.number(), z.number()])),
  }),
  z.object({
    ...thresholdCommon,
    type: z.literal('ami-percentage'),
    thresholds: z.object({ percentage: z.number() }),
  }),
  z.object({
    ...thresholdCommon,
    type: z.literal('fpl-percentage'),
    thresholds: z.object({ percentage: z.number() }),
  }),
]);
export type LowIncomeThresholdRecord = z.infer<typeof lowIncomeThresholdRecordSchema>;

export const povertyLevelRecordSchema = z.object({
  /** "AK", "HI" or "other" (every other state). */
  table: z.string().min(1),
  /** Index = household size; index 0 is unused. */
  levels_by_hhsize: z.array(z.number()).length(9),
  per_additional: z.number(),
});
export type PovertyLevelRecord = z.infer<typeof povertyLevelRecordSchema>;

export const taxBracketRecordSchema = z.object({
  filing_status: filingStatusSchema,
  income_min: z.number(),
  income_max: z.number().nullable(),
  tax_rate: z.number().min(0).max(1),
  standard_deduction: z.number().nonnegative(),
});
export type TaxBracketRecord = z.infer<typeof taxBracketRecordSchema>;

export const dataPartnerRecordSchema = z.object({
  state: stateCodeSchema,
  id: z.string().min(1),
  name: z.string().min(1),
  logo: logoSchema.optional(),
});
export type DataPartnerRecord = z.infer<typeof dataPartnerRecordSchema>;

const timestampSchema = z.string().min(1);
export const loanProgramRecordSchema = z.object({
  position: z.number().int().nonnegative(),
  id: z.number().int(),
  loan_program_key: z.string(),
  name: z.string(),
  description: z.string(),
  description_langs: z.record(z.string(), z.string()).nullable(),
  website_url: z.string(),
  status: z.string(),
  financial_authority_id: z.number().int(),
  financial_authority: z.object({
    id: z.number().int(),
    authority_type: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    state: z.string().nullable(),
    city: z.string().nullable(),
    image_id: z.number().int().nullable(),
    Image: z.object({ src: z.string(), width: z.number(), height: z.number() }).nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  }),
  eligible_project_types: z.array(z.object({ type: z.string() })),
  state: stateCodeSchema.nullable(),
  is_national: z.boolean(),
  loan_program_terms: z.object({
    id: z.number().int(),
    min_credit_score: z.number().nullable(),
    max_debt_to_income: z.number().nullable(),
    min_loan_amount: z.number().nullable(),
    max_loan_amount: z.number().nullable(),
    min_interest_rate: z.number().nullable(),
    max_interest_rate: z.number().nullable(),
    max_repayment_months: z.number().nullable(),
    created_at: timestampSchema,
    updated_at: timestampSchema,
  }),
  created_at: timestampSchema,
  updated_at: timestampSchema,
});
export type LoanProgramRecord = z.infer<typeof loanProgramRecordSchema>;

export const zipRecordSchema = z.object({
  zip: zipCodeSchema,
  city: z.string(),
  state: stateCodeSchema,
  state_name: z.string(),
  /** Whether the ZIP is itself a ZCTA; if not, `parent_zcta` names the ZCTA it belongs to (if any). */
  is_zcta: z.boolean(),
  parent_zcta: zipCodeSchema.nullable(),
  county_fips: z.string().nullable(),
  county_name: z.string().nullable(),
});
export type ZipRecord = z.infer<typeof zipRecordSchema>;

export const geographyRecordSchema = z.object({
  id: z.number().int().positive(),
  /** The public id of a utility territory (e.g. `ri-rhode-island-energy`); null for other types. */
  key: z.string().nullable(),
  type: geographyTypeSchema,
  name: z.string(),
  state: stateCodeSchema,
  county_fips: z.string().nullable(),
  /** GeoJSON text, kept only for `custom` geographies (the only ones an address is tested against). */
  geometry: z.string().nullable(),
});
export type GeographyRecord = z.infer<typeof geographyRecordSchema>;

export const zctaGeographyRecordSchema = z.object({
  position: z.number().int().nonnegative(),
  zcta: zipCodeSchema,
  geography_id: z.number().int().positive(),
  intersection_proportion: z.number().gt(0).max(1),
});
export type ZctaGeographyRecord = z.infer<typeof zctaGeographyRecordSchema>;

export const zipUtilityRecordSchema = z.object({
  position: z.number().int().nonnegative(),
  zip: zipCodeSchema,
  geography_id: z.number().int().positive(),
  predominant: z.boolean(),
});
export type ZipUtilityRecord = z.infer<typeof zipUtilityRecordSchema>;

const amiColumns = {
  /** Blank upstream for some New England ZCTAs (their limits come from county subdivisions). */
  median_family_income: z.number().nonnegative().nullable(),
  ami_30: z.number().nonnegative(),
  ami_50: z.number().nonnegative(),
  ami_60: z.number().nonnegative(),
  ami_80: z.number().nonnegative(),
  ami_100: z.number().nonnegative(),
  ami_150: z.number().nonnegative(),
};

export const amiZctaRecordSchema = z.object({ zcta: zipCodeSchema, name: z.string(), ...amiColumns });
export type AmiZctaRecord = z.infer<typeof amiZctaRecordSchema>;

/** AMI of the territories without ZCTA data: by state (AS, GU, MP) or by ZIP (VI). */
export const amiTerritoryRecordSchema = z.object({
  zip: zipCodeSchema.nullable(),
  state: stateCodeSchema,
  ...amiColumns,
});
export type AmiTerritoryRecord = z.infer<typeof amiTerritoryRecordSchema>;

export const evChargerZctaRecordSchema = z.object({ zcta: zipCodeSchema, is_eligible: z.boolean() });
export type EvChargerZctaRecord = z.infer<typeof evChargerZctaRecordSchema>;

export const evChargerTractRecordSchema = z.object({
  tract_geoid: tractGeoidSchema,
  state: stateCodeSchema,
  is_nonurban: z.boolean(),
  is_low_income_community: z.boolean(),
  is_eligible: z.boolean(),
});
export type EvChargerTractRecord = z.infer<typeof evChargerTractRecordSchema>;

/** Record schema names (also their topics). */
/** Every incentives record schema, each on its own topic (named like the schema). */
export const INCENTIVE_RECORD_SCHEMAS = {
  incentive: recordSchema('incentives.incentive', incentiveRecordSchema),
  program: recordSchema('incentives.program', programRecordSchema),
  authority: recordSchema('incentives.authority', authorityRecordSchema),
  relationships: recordSchema('incentives.relationships', relationshipsRecordSchema),
  geoGroup: recordSchema('incentives.geo-group', geoGroupRecordSchema),
  lowIncomeThreshold: recordSchema('incentives.low-income-threshold', lowIncomeThresholdRecordSchema),
  povertyLevel: recordSchema('incentives.poverty-level', povertyLevelRecordSchema),
  taxBracket: recordSchema('incentives.tax-bracket', taxBracketRecordSchema),
  dataPartner: recordSchema('incentives.data-partner', dataPartnerRecordSchema),
  loanProgram: recordSchema('incentives.loan-program', loanProgramRecordSchema),
  zip: recordSchema('incentives.zip', zipRecordSchema),
  geography: recordSchema('incentives.geography', geographyRecordSchema),
  zctaGeography: recordSchema('incentives.zcta-geography', zctaGeographyRecordSchema),
  zipUtility: recordSchema('incentives.zip-utility', zipUtilityRecordSchema),
  amiZcta: recordSchema('incentives.ami-zcta', amiZctaRecordSchema),
  amiTerritory: recordSchema('incentives.ami-territory', amiTerritoryRecordSchema),
  evChargerZcta: recordSchema('incentives.ev-charger-zcta', evChargerZctaRecordSchema),
  evChargerTract: recordSchema('incentives.ev-charger-tract', evChargerTractRecordSchema),
};
export const INCENTIVE_RECORDS = recordNames(INCENTIVE_RECORD_SCHEMAS);
export const incentivesRecordSchemas: RecordSchema[] = Object.values(INCENTIVE_RECORD_SCHEMAS);
