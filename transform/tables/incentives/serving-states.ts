import { INCENTIVE_RECORD_SCHEMAS as S, type GeographyRecord } from '../../../schemas/incentives/records.ts';
import { FEDERAL_SCOPE, SERVING_STATES, type ServingStateRow } from '../../../data-lake/tables/incentives.ts';
import type { LakeTable } from '../lake-table.ts';
import { FEDERAL_PROGRAMS } from './federal-programs.ts';
import { auditIncentiveCatalog } from './catalog-audits.ts';
import type { CatalogInputs } from './catalog-inputs.ts';
import { polygonsOfText } from '../../../lib/geojson-polygons.ts';

const withoutUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

/**
 * One row per state (and one for the federal catalog) with everything the calculation needs for a
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
        // Unreadable GeoJSON gives no polygons (the audit lists it): an address there falls back to its ZIP.
        .map((g) => ({ id: g.id, polygons: polygonsOfText(g.geometry!) ?? [] })),
    };
  };
  return [FEDERAL_SCOPE, ...[...states].sort()].map(row);
}

const catalogRecords = [
  S.incentive,
  S.program,
  S.authority,
  S.relationships,
  S.geoGroup,
  S.dataPartner,
  S.geography,
];

async function readCatalog(ctx: Parameters<LakeTable['build']>[0]): Promise<CatalogInputs> {
  return {
    incentives: await ctx.records(S.incentive),
    programs: await ctx.records(S.program),
    authorities: await ctx.records(S.authority),
    relationships: await ctx.records(S.relationships),
    geoGroups: await ctx.records(S.geoGroup),
    dataPartners: await ctx.records(S.dataPartner),
    geographies: await ctx.records(S.geography),
  };
}

export const servingStatesTable: LakeTable<ServingStateRow> = {
  ...SERVING_STATES,
  schemaVersion: 1,
  code: [import.meta.url],
  description: 'Per state (US = federal), the incentive catalog the API evaluates, precomputed for serving',
  inputs: { records: [...catalogRecords, S.lowIncomeThreshold] },
  build: async (ctx) => buildServingStates(await readCatalog(ctx)),
  audit: async (_rows, ctx) =>
    auditIncentiveCatalog({
      ...(await readCatalog(ctx)),
      thresholds: await ctx.records(S.lowIncomeThreshold),
    }),
};
