import { z } from 'zod';
import {
  INCENTIVE_RECORDS as R,
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
  type ProgramRecord,
} from '../../../schemas/incentives/records.ts';
import type { LakeTable } from '../lake-table.ts';
import { FEDERAL_PROGRAMS } from './federal-programs.ts';

type Row = Record<string, unknown>;

/** Rows in a stable order: file position where the file's order means something, else the given key. */
function ordered<T extends Row>(rows: T[], key: (row: T) => string | number): T[] {
  return rows.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}

/** A normalized table holding one record schema's accepted records as they are. */
function recordTable<T extends Row>(spec: {
  name: string;
  description: string;
  record: string;
  row: z.ZodType<T>;
  orderBy: (row: T) => string | number;
}): LakeTable<T> {
  return {
    name: spec.name,
    schemaVersion: 1,
    code: [import.meta.url],
    description: spec.description,
    row: spec.row,
    inputs: { records: [spec.record] },
    build: async (ctx) => ordered(await ctx.records<T>(spec.record), spec.orderBy),
  };
}

const byStateAndPosition = (row: { state: string | null; position: number }) =>
  `${row.state ?? ''}/${String(row.position).padStart(6, '0')}`;

export const incentivesTable = recordTable({
  name: 'incentives',
  description:
    'Every incentive (federal ones have state null), as published upstream, in file order per state',
  record: R.incentive,
  row: incentiveRecordSchema,
  orderBy: byStateAndPosition,
});

const programRowSchema = programRecordSchema.extend({ state: programRecordSchema.shape.state.nullable() });
type ProgramRow = z.infer<typeof programRowSchema>;

export const incentiveProgramsTable: LakeTable<ProgramRow> = {
  name: 'incentive_programs',
  schemaVersion: 1,
  code: [import.meta.url],
  description: 'Programs incentives belong to, per state, plus the federal (IRA) programs (state null)',
  row: programRowSchema,
  inputs: { records: [R.program] },
  build: async (ctx) => [
    ...FEDERAL_PROGRAMS.map((program) => ({ ...program, state: null })),
    ...ordered(await ctx.records<ProgramRecord>(R.program), byStateAndPosition),
  ],
};

export const incentiveAuthoritiesTable = recordTable({
  name: 'incentive_authorities',
  description: 'Bodies that offer programs (state, utility, city...), with the geographies they serve',
  record: R.authority,
  row: authorityRecordSchema,
  orderBy: (row) => `${row.state}/${row.authority_type}/${row.id}`,
});

export const incentiveRelationshipsTable = recordTable({
  name: 'incentive_relationships',
  description: 'Per state: prerequisites, exclusions and combined maximums between incentives',
  record: R.relationships,
  // Prerequisites nest recursively; the column holds them as JSON.
  row: z.object({
    state: z.string(),
    prerequisites: z.record(z.string(), z.unknown()).optional(),
    exclusions: z.record(z.string(), z.unknown()).optional(),
    combinations: z.array(z.unknown()).optional(),
  }),
  orderBy: (row) => row.state,
});

export const geoGroupsTable = recordTable({
  name: 'geo_groups',
  description: 'Named groups of geographies an incentive can be limited to (e.g. Mass Save member utilities)',
  record: R.geoGroup,
  row: geoGroupRecordSchema,
  orderBy: (row) => `${row.state}/${row.id}`,
});

export const lowIncomeThresholdsTable = recordTable({
  name: 'low_income_thresholds',
  description:
    'Income limits incentives refer to by id: by household size, county, filing status, % AMI or % FPL',
  record: R.lowIncomeThreshold,
  // One column holds the type-specific thresholds as JSON.
  row: z.object({
    id: z.string(),
    type: z.enum(['hhsize', 'county-hhsize', 'filing-status', 'ami-percentage', 'fpl-percentage']),
    source_url: z.string(),
    description: z.string().optional(),
    thresholds: z.record(z.string(), z.unknown()),
  }),
  orderBy: (row) => row.id,
});

export const povertyLevelsTable = recordTable({
  name: 'poverty_levels',
  description: 'Federal poverty guidelines by household size (AK, HI, and every other state)',
  record: R.povertyLevel,
  row: povertyLevelRecordSchema,
  orderBy: (row) => row.table,
});

export const taxBracketsTable = recordTable({
  name: 'tax_brackets',
  description: 'Federal income tax brackets and standard deductions by filing status',
  record: R.taxBracket,
  row: taxBracketRecordSchema,
  orderBy: (row) => `${row.filing_status}/${String(row.income_min).padStart(12, '0')}`,
});

export const dataPartnersTable = recordTable({
  name: 'data_partners',
  description: 'Organisations credited for a state’s incentive data',
  record: R.dataPartner,
  row: dataPartnerRecordSchema,
  orderBy: (row) => `${row.state}/${row.id}`,
});

export const loanProgramsTable = recordTable({
  name: 'loan_programs',
  description: 'Energy loan programs with their lender and terms, in catalogue order',
  record: R.loanProgram,
  row: loanProgramRecordSchema,
  orderBy: (row) => row.position,
});

export const zipsTable = recordTable({
  name: 'zips',
  description: 'ZIP codes with city, state, county and the ZCTA they belong to',
  record: R.zip,
  row: zipRecordSchema,
  orderBy: (row) => row.zip,
});

export const geographiesTable = recordTable({
  name: 'geographies',
  description: 'States, counties, custom areas (with GeoJSON) and electric/gas utility territories',
  record: R.geography,
  row: geographyRecordSchema,
  orderBy: (row) => row.id,
});

export const zctaGeographiesTable = recordTable({
  name: 'zcta_geographies',
  description: 'Share of each ZCTA’s area inside each state, county and custom geography',
  record: R.zctaGeography,
  row: zctaGeographyRecordSchema,
  orderBy: (row) => row.position,
});

export const utilityZipsTable = recordTable({
  name: 'utility_zips',
  description: 'Electric and gas utility territories serving each ZIP (approximate), and which predominates',
  record: R.zipUtility,
  row: zipUtilityRecordSchema,
  orderBy: (row) => row.position,
});

export const amiZctaTable = recordTable({
  name: 'ami_zcta',
  description: 'HUD income limits (4-person) by ZCTA: the minimum over the areas each ZCTA overlaps',
  record: R.amiZcta,
  row: amiZctaRecordSchema,
  orderBy: (row) => row.zcta,
});

export const amiTerritoryTable = recordTable({
  name: 'ami_territory',
  description: 'HUD income limits (4-person) for AS, GU and MP (by territory) and VI (by ZIP)',
  record: R.amiTerritory,
  row: amiTerritoryRecordSchema,
  orderBy: (row) => `${row.state}/${row.zip ?? ''}`,
});

export const evChargerZctaTable = recordTable({
  name: 'ev_charger_zcta',
  description: 'Federal EV charger credit (30C) eligibility by ZCTA (eligible only if all its tracts are)',
  record: R.evChargerZcta,
  row: evChargerZctaRecordSchema,
  orderBy: (row) => row.zcta,
});

export const evChargerTractTable = recordTable({
  name: 'ev_charger_tract',
  description:
    'Federal EV charger credit (30C) eligibility by census tract (low-income community or non-urban)',
  record: R.evChargerTract,
  row: evChargerTractRecordSchema,
  orderBy: (row) => row.tract_geoid,
});
