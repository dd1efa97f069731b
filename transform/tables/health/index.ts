import { HEALTH_RECORD_SCHEMAS as S } from '../../../schemas/health-data.ts';
import { HEALTH_DAMAGE_FACTORS } from '../../../data-lake/tables/health.ts';
import type { AnyLakeTable } from '../lake-table.ts';
import { sortedRecordTable } from '../rem/rem-tables.ts';
import { healthImpactsTable } from './health-impacts-table.ts';
import { auditHealthDamageFactors } from './health-audits.ts';
import { placeDamageFactorsTable } from './place-damage-factors-table.ts';

/** Premature deaths per tonne by region, sector and pollutant, as ingested (the health rollup reads them). */
export const healthDamageFactorsTable = sortedRecordTable({
  ref: HEALTH_DAMAGE_FACTORS,
  description:
    'Premature deaths per tonne of a pollutant emitted by homes or power plants, per state or US-wide, with year, publisher and how the published figure became deaths per tonne',
  record: S.damageFactor,
  key: (r) => `${r.region}/${r.sector}/${r.pollutant}`,
  audit: (rows) => auditHealthDamageFactors(rows),
  code: import.meta.url,
});

/**
 * The health-impact model's tables: its damage factors and their spread over places, then the county rollup
 * the simulate stage computes from the REM clusters' results, the county table and the emission factors.
 */
export const healthLakeTables: AnyLakeTable[] = [
  healthDamageFactorsTable,
  placeDamageFactorsTable,
  healthImpactsTable,
];
