import {
  HEALTH_RECORD_SCHEMAS as S,
  damageFactorFor,
  type DamageFactor,
  type PlaceDamageFactor,
} from '../../../schemas/health-data.ts';
import type { AuditFinding } from '../../../schemas/lake.ts';
import { HEALTH_DAMAGE_FACTORS, HEALTH_PLACE_DAMAGE_FACTORS } from '../../../data-lake/tables/health.ts';
import { REM_COUNTIES, REM_EMISSION_FACTORS } from '../../../data-lake/tables/rem.ts';
import { type RemCountyRow } from '../../../schemas/rem-data.ts';
import { placeDamageFactors } from '../../../model/health/place-damage-factors.ts';
import { offendersFinding } from '../audit-findings.ts';
import type { LakeTable } from '../lake-table.ts';

/** The national mean of each spread figure holds to this fraction (it holds exactly up to rounding). */
export const MEAN_TOLERANCE = 0.001;

/**
 * Deaths per tonne where tonnes are emitted: per county for home combustion, per state for power plants
 * (model/health/place-damage-factors.ts), from the damage factors, the counties, their population and land
 * area, and the fossil power plants.
 */
export const placeDamageFactorsTable: LakeTable<PlaceDamageFactor> = {
  ...HEALTH_PLACE_DAMAGE_FACTORS,
  schemaVersion: 1,
  code: [import.meta.url],
  description:
    'Premature deaths per tonne (central and low estimate) where a tonne is emitted: per county for home combustion, ' +
    "by the county's population exposure (local density and population within a few hundred km), per state for " +
    'power plants, by where its fossil generation is; each spread of an EPA figure keeps its emissions-weighted mean',
  inputs: {
    records: [S.countyGeography, S.powerPlant],
    tables: [REM_COUNTIES, HEALTH_DAMAGE_FACTORS, REM_EMISSION_FACTORS],
  },
  async build(ctx) {
    const rows = placeDamageFactors({
      counties: await ctx.table(REM_COUNTIES),
      geography: await ctx.records(S.countyGeography),
      plants: await ctx.records(S.powerPlant),
      damageFactors: await ctx.table(HEALTH_DAMAGE_FACTORS),
      emissionFactors: await ctx.table(REM_EMISSION_FACTORS),
    });
    const order = (r: PlaceDamageFactor) => `${r.sector}/${r.county_fips ?? r.state}/${r.pollutant}`;
    return rows.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  },
  async audit(rows, ctx) {
    return auditPlaceDamageFactors(
      rows,
      await ctx.table(REM_COUNTIES),
      await ctx.table(HEALTH_DAMAGE_FACTORS),
    );
  },
};

/**
 * Every county has a home-combustion factor and every state a power-sector one for every pollutant (an
 * error otherwise, as the rollup could not price its tonnes); each spread figure's emissions-weighted mean
 * is the figure, to MEAN_TOLERANCE (an error otherwise: the spread would have recalibrated it); places that
 * took the figure as it is (no population or plants to place them by) are listed as a warning.
 */
export function auditPlaceDamageFactors(
  rows: readonly PlaceDamageFactor[],
  counties: readonly Pick<RemCountyRow, 'county_fips' | 'state'>[],
  damageFactors: readonly DamageFactor[],
): AuditFinding[] {
  const table = HEALTH_PLACE_DAMAGE_FACTORS.name;
  const have = new Set(rows.map((r) => `${r.sector}/${r.county_fips ?? r.state}/${r.pollutant}`));
  const pollutantsOf = (sector: string) => [
    ...new Set(damageFactors.filter((f) => f.sector === sector).map((f) => f.pollutant)),
  ];
  const states = [...new Set(counties.map((c) => c.state))];
  const missing = [
    ...counties.flatMap((c) =>
      pollutantsOf('residential_combustion')
        .map((p) => `residential_combustion/${c.county_fips}/${p}`)
        .filter((k) => !have.has(k)),
    ),
    ...states.flatMap((s) =>
      pollutantsOf('electricity_generation')
        .map((p) => `electricity_generation/${s}/${p}`)
        .filter((k) => !have.has(k)),
    ),
  ];
  const means = new Map<string, { figure: DamageFactor; weight: number; central: number; low: number }>();
  for (const r of rows) {
    const figure = damageFactorFor(damageFactors, r.source_region, r.sector, r.pollutant);
    if (!figure) continue;
    const key = `${r.sector}/${r.source_region}/${r.pollutant}`;
    const mean = means.get(key) ?? { figure, weight: 0, central: 0, low: 0 };
    mean.weight += r.emissions_weight;
    mean.central += r.emissions_weight * r.deaths_per_tonne;
    mean.low += r.emissions_weight * r.deaths_per_tonne_low;
    means.set(key, mean);
  }
  const recalibrated = [...means].flatMap(([key, m]) =>
    (['central', 'low'] as const).flatMap((estimate) => {
      const figure = estimate === 'central' ? m.figure.deaths_per_tonne : m.figure.deaths_per_tonne_low;
      if (figure === 0 || m.weight === 0) return [];
      const mean = m[estimate] / m.weight;
      return Math.abs(mean / figure - 1) > MEAN_TOLERANCE ? [`${key} ${estimate}: ${mean} vs ${figure}`] : [];
    }),
  );
  const national = rows
    .filter((r) => r.basis === 'national' && r.deaths_per_tonne > 0)
    .map((r) => `${r.sector}/${r.county_fips ?? r.state}/${r.pollutant}`);
  return [
    ...offendersFinding(table, 'every_place_has_a_factor', 'error', 'places without a factor', missing),
    ...offendersFinding(
      table,
      'mean_is_the_figure',
      'error',
      `spread figures whose emissions-weighted mean is off the figure by more than ${MEAN_TOLERANCE * 100} %`,
      recalibrated,
    ),
    ...offendersFinding(
      table,
      'national_figure',
      'warning',
      'places priced at the figure itself (no population, land area or fossil generation to place them by)',
      national,
    ),
  ];
}
