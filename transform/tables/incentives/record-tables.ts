import type { z } from 'zod';
import type { RecordSchema } from '../../../schemas/record-schema.ts';
import { INCENTIVE_RECORD_SCHEMAS as S } from '../../../schemas/incentives/records.ts';
import {
  AMI_TERRITORY,
  AMI_ZCTA,
  DATA_PARTNERS,
  EV_CHARGER_TRACT,
  EV_CHARGER_ZCTA,
  GEOGRAPHIES,
  GEO_GROUPS,
  INCENTIVES,
  INCENTIVE_AUTHORITIES,
  INCENTIVE_PROGRAMS,
  INCENTIVE_RELATIONSHIPS,
  LOAN_PROGRAMS,
  LOW_INCOME_THRESHOLDS,
  POVERTY_LEVELS,
  TAX_BRACKETS,
  UTILITY_ZIPS,
  ZCTA_GEOGRAPHIES,
  ZIPS,
} from '../../../data-lake/tables/incentives.ts';
import type { RowOf, TableRef } from '../../../data-lake/tables/table-ref.ts';
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
  ref: TableRef<T>;
  description: string;
  record: RecordSchema<z.ZodType<T>>;
  orderBy: (row: T) => string | number;
}): LakeTable<T> {
  return {
    ...spec.ref,
    schemaVersion: 1,
    code: [import.meta.url],
    description: spec.description,
    inputs: { records: [spec.record] },
    build: async (ctx) => ordered(await ctx.records(spec.record), spec.orderBy),
  };
}

const byStateAndPosition = (row: { state: string | null; position: number }) =>
  `${row.state ?? ''}/${String(row.position).padStart(6, '0')}`;

export const incentivesTable = recordTable({
  ref: INCENTIVES,
  description:
    'Every incentive (federal ones have state null), as published upstream, in file order per state',
  record: S.incentive,
  orderBy: byStateAndPosition,
});

export const incentiveProgramsTable: LakeTable<RowOf<typeof INCENTIVE_PROGRAMS>> = {
  ...INCENTIVE_PROGRAMS,
  schemaVersion: 1,
  code: [import.meta.url],
  description: 'Programs incentives belong to, per state, plus the federal (IRA) programs (state null)',
  inputs: { records: [S.program] },
  build: async (ctx) => [
    ...FEDERAL_PROGRAMS.map((program) => ({ ...program, state: null })),
    ...ordered(await ctx.records(S.program), byStateAndPosition),
  ],
};

export const incentiveAuthoritiesTable = recordTable({
  ref: INCENTIVE_AUTHORITIES,
  description: 'Bodies that offer programs (state, utility, city...), with the geographies they serve',
  record: S.authority,
  orderBy: (row) => `${row.state}/${row.authority_type}/${row.id}`,
});

export const incentiveRelationshipsTable = recordTable({
  ref: INCENTIVE_RELATIONSHIPS,
  description: 'Per state: prerequisites, exclusions and combined maximums between incentives',
  record: S.relationships,
  orderBy: (row) => row.state,
});

export const geoGroupsTable = recordTable({
  ref: GEO_GROUPS,
  description: 'Named groups of geographies an incentive can be limited to (e.g. Mass Save member utilities)',
  record: S.geoGroup,
  orderBy: (row) => `${row.state}/${row.id}`,
});

export const lowIncomeThresholdsTable = recordTable({
  ref: LOW_INCOME_THRESHOLDS,
  description:
    'Income limits incentives refer to by id: by household size, county, filing status, % AMI or % FPL',
  record: S.lowIncomeThreshold,
  orderBy: (row) => row.id,
});

export const povertyLevelsTable = recordTable({
  ref: POVERTY_LEVELS,
  description: 'Federal poverty guidelines by household size (AK, HI, and every other state)',
  record: S.povertyLevel,
  orderBy: (row) => row.table,
});

export const taxBracketsTable = recordTable({
  ref: TAX_BRACKETS,
  description: 'Federal income tax brackets and standard deductions by filing status',
  record: S.taxBracket,
  orderBy: (row) => `${row.filing_status}/${String(row.income_min).padStart(12, '0')}`,
});

export const dataPartnersTable = recordTable({
  ref: DATA_PARTNERS,
  description: 'Organisations credited for a state’s incentive data',
  record: S.dataPartner,
  orderBy: (row) => `${row.state}/${row.id}`,
});

export const loanProgramsTable = recordTable({
  ref: LOAN_PROGRAMS,
  description: 'Energy loan programs with their lender and terms, in catalog order',
  record: S.loanProgram,
  orderBy: (row) => row.position,
});

export const zipsTable = recordTable({
  ref: ZIPS,
  description: 'ZIP codes with city, state, county and the ZCTA they belong to',
  record: S.zip,
  orderBy: (row) => row.zip,
});

export const geographiesTable = recordTable({
  ref: GEOGRAPHIES,
  description: 'States, counties, custom areas (with GeoJSON) and electric/gas utility territories',
  record: S.geography,
  orderBy: (row) => row.id,
});

export const zctaGeographiesTable = recordTable({
  ref: ZCTA_GEOGRAPHIES,
  description: 'Share of each ZCTA’s area inside each state, county and custom geography',
  record: S.zctaGeography,
  orderBy: (row) => row.position,
});

export const utilityZipsTable = recordTable({
  ref: UTILITY_ZIPS,
  description: 'Electric and gas utility territories serving each ZIP (approximate), and which predominates',
  record: S.zipUtility,
  orderBy: (row) => row.position,
});

export const amiZctaTable = recordTable({
  ref: AMI_ZCTA,
  description: 'HUD income limits (4-person) by ZCTA: the minimum over the areas each ZCTA overlaps',
  record: S.amiZcta,
  orderBy: (row) => row.zcta,
});

export const amiTerritoryTable = recordTable({
  ref: AMI_TERRITORY,
  description: 'HUD income limits (4-person) for AS, GU and MP (by territory) and VI (by ZIP)',
  record: S.amiTerritory,
  orderBy: (row) => `${row.state}/${row.zip ?? ''}`,
});

export const evChargerZctaTable = recordTable({
  ref: EV_CHARGER_ZCTA,
  description: 'Federal EV charger credit (30C) eligibility by ZCTA (eligible only if all its tracts are)',
  record: S.evChargerZcta,
  orderBy: (row) => row.zcta,
});

export const evChargerTractTable = recordTable({
  ref: EV_CHARGER_TRACT,
  description:
    'Federal EV charger credit (30C) eligibility by census tract (low-income community or non-urban)',
  record: S.evChargerTract,
  orderBy: (row) => row.tract_geoid,
});
