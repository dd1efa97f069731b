import { HEALTH_RECORDS, damageFactorSchema, type DamageFactor } from '../../../schemas/health-data.ts';
import type { LakeTable } from '../lake-table.ts';
import { sortedRecordTable } from '../rem/rem-tables.ts';
import { auditHealthDamageFactors } from './health-audits.ts';

/** Premature deaths per tonne by region, sector and pollutant, as ingested (the health rollup reads them). */
export const healthDamageFactorsTable = sortedRecordTable<DamageFactor>({
  name: 'health_damage_factors',
  description:
    'Premature deaths per tonne of a pollutant emitted by homes or power plants, per state or US-wide, with year, publisher and how the published figure became deaths per tonne',
  record: HEALTH_RECORDS.damageFactor,
  row: damageFactorSchema,
  key: (r) => `${r.region}/${r.sector}/${r.pollutant}`,
  audit: (rows) => auditHealthDamageFactors(rows),
});

/** The health-impact model's source tables. */
export const healthLakeTables: LakeTable[] = [healthDamageFactorsTable] as LakeTable[];
