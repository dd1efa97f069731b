import { HEALTH_POLLUTANTS } from '../../../schemas/health-data.ts';
import type { AuditFinding } from '../../../schemas/lake.ts';
import {
  GRID_EMISSIONS,
  REM_RECORD_SCHEMAS as S,
  type GridEmissionFactor,
  type GridRegionRow,
  type RemCountyRow,
} from '../../../schemas/rem-data.ts';
import {
  REM_COUNTIES,
  REM_EMISSION_FACTORS,
  REM_GRID_EMISSION_FACTORS,
  REM_GRID_REGIONS,
} from '../../../data-lake/tables/rem.ts';
import { offendersFinding } from '../audit-findings.ts';
import type { LakeTable } from '../lake-table.ts';
import { GRID_POLLUTANTS, gridEmissionFactors, gridRegionRows } from './long-run-grid.ts';

/** The long-run grid's tables: each Cambium region's figures, and each state × region's electricity factors. */

export const gridRegionsTable: LakeTable<GridRegionRow> = {
  ...REM_GRID_REGIONS,
  schemaVersion: 1,
  code: [import.meta.url],
  description:
    "Cambium 2024 mid-case regions: the levelized long-run marginal CO2e rate (mean of its 8,760 hours, and of November–March), and the share of today's fossil and coal generation left on average over the same 15 years",
  inputs: { records: [S.lrmerProfile, S.gridGeneration] },
  build: async (ctx) =>
    gridRegionRows(await ctx.records(S.lrmerProfile), await ctx.records(S.gridGeneration)),
  audit: (rows) =>
    offendersFinding(
      REM_GRID_REGIONS.name,
      'not_empty',
      'warning',
      'no grid regions: electricity is counted at today’s grid only',
      rows.length === 0 ? ['(no rows)'] : [],
    ),
};

export const gridEmissionFactorsTable: LakeTable<GridEmissionFactor> = {
  ...REM_GRID_EMISSION_FACTORS,
  schemaVersion: 1,
  code: [import.meta.url],
  description:
    "Electricity emission factors (kg/kWh) of every state × Cambium region the counties lie in, on each grid basis: today's eGRID average (current_average) and the long run's (long_run: Cambium's LRMER for CO2e, today's rates × the region's projected fossil or coal share for the rest)",
  inputs: { tables: [REM_COUNTIES, REM_EMISSION_FACTORS, REM_GRID_REGIONS] },
  build: async (ctx) => {
    const counties = await ctx.table(REM_COUNTIES);
    const order = (r: GridEmissionFactor) =>
      `${r.region}/${r.grid_region}/${r.grid_emissions}/${r.pollutant}`;
    return gridEmissionFactors(
      counties,
      await ctx.table(REM_GRID_REGIONS),
      await ctx.table(REM_EMISSION_FACTORS),
    ).sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  },
  audit: async (rows, ctx) => auditGridEmissionFactors(rows, await ctx.table(REM_COUNTIES)),
};

/**
 * Every county's state × region has a CO2e factor on each basis (an error otherwise: REM could not price its
 * emissions); a health pollutant some pair has no factor of on a basis is a warning (its tonnes count as 0).
 */
export function auditGridEmissionFactors(
  rows: readonly GridEmissionFactor[],
  counties: readonly Pick<RemCountyRow, 'state' | 'grid_region'>[],
): AuditFinding[] {
  const table = REM_GRID_EMISSION_FACTORS.name;
  const have = new Set(rows.map((r) => `${r.region}/${r.grid_region}/${r.grid_emissions}/${r.pollutant}`));
  const pairs = [...new Set(counties.map((c) => `${c.state}/${c.grid_region}`))].sort();
  const missing = (pollutants: readonly string[]) =>
    pairs.flatMap((pair) =>
      GRID_EMISSIONS.flatMap((basis) =>
        pollutants.filter((p) => !have.has(`${pair}/${basis}/${p}`)).map((p) => `${pair} ${basis} ${p}`),
      ),
    );
  const healthPollutants = HEALTH_POLLUTANTS.filter((p) =>
    (GRID_POLLUTANTS as readonly string[]).includes(p),
  );
  return [
    ...offendersFinding(
      table,
      'co2e_for_every_county',
      'error',
      'state × grid region × basis without a CO2e factor',
      missing(['co2e']),
    ),
    ...offendersFinding(
      table,
      'health_pollutants',
      'warning',
      'state × grid region × basis without a factor of a health pollutant (its power-plant tonnes count as 0)',
      missing(healthPollutants),
    ),
  ];
}
