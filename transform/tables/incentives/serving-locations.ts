import { TERRITORIES } from '../../../schemas/incentives/enums.ts';
import {
  INCENTIVE_RECORD_SCHEMAS as S,
  type AmiTerritoryRecord,
  type AmiZctaRecord,
  type EvChargerZctaRecord,
  type GeographyRecord,
  type ZctaGeographyRecord,
  type ZipRecord,
  type ZipUtilityRecord,
} from '../../../schemas/incentives/records.ts';
import { amiBySize } from '../../../schemas/incentives/ami.ts';
import { SERVING_LOCATIONS, type ServingLocationRow } from '../../../data-lake/tables/incentives.ts';
import type { LakeTable } from '../lake-table.ts';

export interface LocationInputs {
  zips: ZipRecord[];
  geographies: GeographyRecord[];
  zctaGeographies: ZctaGeographyRecord[];
  zipUtilities: ZipUtilityRecord[];
  amiZcta: AmiZctaRecord[];
  amiTerritory: AmiTerritoryRecord[];
  evChargerZcta: EvChargerZctaRecord[];
}

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

const byShareThenPosition = (a: ZctaGeographyRecord, b: ZctaGeographyRecord) =>
  b.intersection_proportion - a.intersection_proportion || a.position - b.position;
const byPredominanceThenPosition = (a: ZipUtilityRecord, b: ZipUtilityRecord) =>
  Number(b.predominant) - Number(a.predominant) || a.position - b.position;

/**
 * One row per ZIP that resolves to a location: its ZCTA (itself, or its parent), the ZCTA's dominant
 * state, overlapping geographies, size-adjusted AMI limits, 30C eligibility and utilities. A ZIP without
 * a ZCTA, or whose ZCTA overlaps no state, has no row (the API answers 404).
 */
export function buildServingLocations(input: LocationInputs): ServingLocationRow[] {
  const geographyById = new Map(input.geographies.map((g) => [g.id, g]));
  const geographiesByZcta = groupBy(input.zctaGeographies, (g) => g.zcta);
  const utilitiesByZip = groupBy(input.zipUtilities, (u) => u.zip);
  const amiByZcta = new Map(input.amiZcta.map((a) => [a.zcta, a]));
  const evByZcta = new Map(input.evChargerZcta.map((e) => [e.zcta, e.is_eligible]));
  const zctaOf = (zip: ZipRecord) => (zip.is_zcta ? zip.zip : zip.parent_zcta);
  const zipsByZcta = groupBy(input.zips, zctaOf);

  const rows: ServingLocationRow[] = [];
  for (const zip of input.zips) {
    const zcta = zctaOf(zip);
    if (zcta === null) continue;
    const overlaps = [...(geographiesByZcta.get(zcta) ?? [])].sort(byShareThenPosition);
    const geographies = overlaps.flatMap((overlap) => {
      const geography = geographyById.get(overlap.geography_id);
      return geography
        ? [
            {
              id: geography.id,
              type: geography.type,
              county_fips: geography.county_fips,
              proportion: overlap.intersection_proportion,
            },
          ]
        : [];
    });
    const stateGeography = geographies.find((g) => g.type === 'state');
    if (stateGeography === undefined) continue;
    const state = geographyById.get(stateGeography.id)!.state;

    const ami = amiFor(state, zcta, amiByZcta, input.amiTerritory);
    const utilities = (zipsByZcta.get(zcta) ?? [])
      .flatMap((member) => utilitiesByZip.get(member.zip) ?? [])
      .sort(byPredominanceThenPosition)
      .map((u) => geographyById.get(u.geography_id))
      .filter((g): g is GeographyRecord => g !== undefined && g.state === state && g.key !== null);
    const keysOf = (type: GeographyRecord['type']) => [
      ...new Set(utilities.filter((g) => g.type === type).map((g) => g.key!)),
    ];
    rows.push({
      zip: zip.zip,
      zcta,
      state,
      city: zip.city,
      county_fips: zip.county_fips,
      geographies,
      ami_80: ami ? amiBySize(ami.ami_80) : null,
      ami_150: ami ? amiBySize(ami.ami_150) : null,
      // The territories without ZCTA data are wholly non-urban, hence 30C-eligible.
      ev_charger_eligible:
        TERRITORIES.includes(state) && state !== 'PR' ? true : (evByZcta.get(zcta) ?? null),
      electric_utilities: keysOf('electric_territory'),
      gas_utilities: keysOf('gas_territory'),
    });
  }
  return rows;
}

/** AS, GU and MP have one limit per territory, VI one per ZIP; everything else (PR included) is by ZCTA. */
function amiFor(
  state: string,
  zcta: string,
  amiByZcta: Map<string, AmiZctaRecord>,
  territories: AmiTerritoryRecord[],
): { ami_80: number; ami_150: number } | undefined {
  if (state === 'VI') return territories.find((t) => t.state === 'VI' && t.zip === zcta);
  if (TERRITORIES.includes(state) && state !== 'PR') return territories.find((t) => t.state === state);
  return amiByZcta.get(zcta);
}

export const servingLocationsTable: LakeTable<ServingLocationRow> = {
  ...SERVING_LOCATIONS,
  schemaVersion: 1,
  code: [import.meta.url],
  description: 'Per ZIP, everything the incentives API needs about the location, precomputed for serving',
  inputs: {
    records: [S.zip, S.geography, S.zctaGeography, S.zipUtility, S.amiZcta, S.amiTerritory, S.evChargerZcta],
  },
  build: async (ctx) =>
    buildServingLocations({
      zips: await ctx.records(S.zip),
      geographies: await ctx.records(S.geography),
      zctaGeographies: await ctx.records(S.zctaGeography),
      zipUtilities: await ctx.records(S.zipUtility),
      amiZcta: await ctx.records(S.amiZcta),
      amiTerritory: await ctx.records(S.amiTerritory),
      evChargerZcta: await ctx.records(S.evChargerZcta),
    }),
};
