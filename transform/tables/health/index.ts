import { HEALTH_RECORDS, damageFactorSchema, type DamageFactor } from '../../../schemas/health-data.ts';
import type { LakeTable } from '../lake-table.ts';
import { REM_CLUSTERS_TABLE } from '../rem/rem-stage-tables.ts';
import { remCountiesTable, remEmissionFactorsTable, sortedRecordTable } from '../rem/rem-tables.ts';
import { healthImpactsTable } from './health-impacts-table.ts';
import { auditHealthDamageFactors } from './health-audits.ts';
import { placeDamageFactorsTable } from './place-damage-factors-table.ts';

/** Premature deaths per tonne by region, sector and pollutant, as ingested (the health rollup reads them). */
export const healthDamageFactorsTable = sortedRecordTable<DamageFactor>({
  name: 'health_damage_factors',
  description:
    'Premature deaths per tonne of a pollutant emitted by homes or power plants, per state or US-wide, with year, publisher and how the published figure became deaths per tonne',
  record: HEALTH_RECORDS.damageFactor,
  row: damageFactorSchema,
  key: (r) => `${r.region}/${r.sector}/${r.pollutant}`,
  audit: (rows) => auditHealthDamageFactors(rows),
  code: import.meta.url,
});

const placeFactors = placeDamageFactorsTable({
  counties: remCountiesTable.name,
  damageFactors: healthDamageFactorsTable.name,
  emissionFactors: remEmissionFactorsTable.name,
});

/**
 * The health-impact model's tables: its damage factors and their spread over places, then the county rollup
 * the simulate stage computes from the REM clusters' results, the county table and the emission factors.
 */
export const healthLakeTables: LakeTable[] = [
  healthDamageFactorsTable,
  placeFactors,
  healthImpactsTable({
    clusters: REM_CLUSTERS_TABLE,
    counties: remCountiesTable.name,
    factors: remEmissionFactorsTable.name,
    damageFactors: healthDamageFactorsTable.name,
    placeFactors: placeFactors.name,
  }),
] as LakeTable[];
