import { z } from 'zod';
import { authorityTypeSchema } from '../../../schemas/incentives/enums.ts';
import {
  INCENTIVE_RECORDS as R,
  incentiveRecordSchema,
  type AuthorityRecord,
  type DataPartnerRecord,
  type GeoGroupRecord,
  type GeographyRecord,
  type IncentiveRecord,
  type ProgramRecord,
  type RelationshipsRecord,
} from '../../../schemas/incentives/records.ts';
import type { LakeTable } from '../lake-table.ts';
import { FEDERAL_PROGRAMS } from './federal-programs.ts';
import { auditIncentiveCatalog } from './catalog-audits.ts';
import { polygonsOf } from './geojson-polygons.ts';

/** The catalogue row of the federal incentives; state rows use their two-letter code. */
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

export interface CatalogInputs {
  incentives: IncentiveRecord[];
  programs: ProgramRecord[];
  authorities: AuthorityRecord[];
  relationships: RelationshipsRecord[];
  geoGroups: GeoGroupRecord[];
  dataPartners: DataPartnerRecord[];
  geographies: GeographyRecord[];
}

/** Unreadable GeoJSON gives no polygons: an address there then falls back to its ZIP's overlaps. */
function polygonsOfText(geojson: string): ReturnType<typeof polygonsOf> {
  try {
    return polygonsOf(JSON.parse(geojson));
  } catch {
    return [];
  }
}

const withoutUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

/**
 * One row per state (and one for the federal catalogue) with everything the calculation needs for a
 * request located there, so serving never joins: candidates, programs, authorities, utilities, geo
 * groups, relationships and data partners.
 */
export function buildServingStates(input: CatalogInputs): ServingStateRow[] {
  const states = new Set<string>([
    ...input.incentives.flatMap((i) => (i.state ? [i.state] : [])),
    ...input.programs.map((p) => p.state),
    ...input.authorities.map((a) => a.state),
    ...input.geographies.map((g) => g.state),
  ]);
  const row = (state: string): ServingStateRow => {
    const inState = <T extends { state: string | null }>(items: T[]) =>
      items.filter((item) => item.state === (state === FEDERAL_SCOPE ? null : state));
    const incentives = inState(input.incentives).sort((a, b) => a.position - b.position);
    const programs =
      state === FEDERAL_SCOPE
        ? FEDERAL_PROGRAMS
        : input.programs.filter((p) => p.state === state).sort((a, b) => a.position - b.position);
    const authorities: ServingStateRow['authorities'] = {};
    for (const a of input.authorities.filter((x) => x.state === state)) {
      (authorities[a.authority_type] ??= {})[a.id] = withoutUndefined({
        name: a.name,
        geography_ids: a.geography_ids,
        logo: a.logo,
      });
    }
    const utilitiesOf = (type: GeographyRecord['type']) =>
      Object.fromEntries(
        input.geographies
          .filter((g) => g.state === state && g.type === type && g.key !== null)
          .map((g) => [g.key!, { id: g.id, name: g.name }]),
      );
    const relationships = input.relationships.find((r) => r.state === state);
    const programById = new Map(programs.map((p) => [p.id, p]));
    return {
      state,
      incentives: incentives.map(({ state: _s, position: _p, ...incentive }) => incentive),
      programs: Object.fromEntries(
        programs.map(({ id, name, url, authority, authority_type, description, items }) => [
          id,
          withoutUndefined({ name, url, authority, authority_type, description, items }),
        ]),
      ),
      authorities,
      electric_utilities: utilitiesOf('electric_territory'),
      gas_utilities: utilitiesOf('gas_territory'),
      geo_groups: Object.fromEntries(
        input.geoGroups.filter((g) => g.state === state).map((g) => [g.id, g.geographies]),
      ),
      prerequisites: relationships?.prerequisites ?? {},
      exclusions: Object.fromEntries(
        Object.entries(relationships?.exclusions ?? {}).map(([id, excluded]) => [
          id,
          Array.isArray(excluded) ? excluded : excluded.ids,
        ]),
      ),
      data_partners: Object.fromEntries(
        input.dataPartners
          .filter((p) => p.state === state)
          .map((p) => [p.id, withoutUndefined({ name: p.name, logo: p.logo })]),
      ),
      gas_utility_affects_incentives:
        state === 'MA' ||
        incentives.some((i) => programById.get(i.program)?.authority_type === 'gas_utility'),
      custom_areas: input.geographies
        .filter((g) => g.state === state && g.type === 'custom' && g.geometry !== null)
        .map((g) => ({ id: g.id, polygons: polygonsOfText(g.geometry!) })),
    };
  };
  return [FEDERAL_SCOPE, ...[...states].sort()].map(row);
}

const catalogRecords = [
  R.incentive,
  R.program,
  R.authority,
  R.relationships,
  R.geoGroup,
  R.dataPartner,
  R.geography,
];

async function readCatalog(ctx: Parameters<LakeTable['build']>[0]): Promise<CatalogInputs> {
  return {
    incentives: await ctx.records(R.incentive),
    programs: await ctx.records(R.program),
    authorities: await ctx.records(R.authority),
    relationships: await ctx.records(R.relationships),
    geoGroups: await ctx.records(R.geoGroup),
    dataPartners: await ctx.records(R.dataPartner),
    geographies: await ctx.records(R.geography),
  };
}

export const servingStatesTable: LakeTable<ServingStateRow> = {
  name: 'incentives_serving_states',
  schemaVersion: 1,
  code: [import.meta.url],
  description: 'Per state (US = federal), the incentive catalogue the API evaluates, precomputed for serving',
  row: servingStateRowSchema,
  inputs: { records: [...catalogRecords, R.lowIncomeThreshold] },
  build: async (ctx) => buildServingStates(await readCatalog(ctx)),
  audit: async (_rows, ctx) =>
    auditIncentiveCatalog({
      ...(await readCatalog(ctx)),
      thresholds: await ctx.records(R.lowIncomeThreshold),
    }),
};
