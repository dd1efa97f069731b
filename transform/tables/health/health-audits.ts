import type { AuditFinding } from '../../../schemas/lake.ts';
import {
  EMISSION_SECTORS,
  HEALTH_POLLUTANTS,
  damageFactorFor,
  type DamageFactor,
} from '../../../schemas/health-data.ts';
import { CONTIGUOUS_STATE_FIPS } from '../../../schemas/rem-data.ts';
import { offendersFinding } from '../audit-findings.ts';

const STATES = Object.keys(CONTIGUOUS_STATE_FIPS);

/**
 * Deaths per tonne outside this band are taken for a unit slip (per kg, per thousand tons, $ instead of
 * deaths) rather than a place: published U.S. figures, national or by state, for primary PM2.5 and its
 * precursors from homes and power plants lie between about 10⁻⁴ (VOC, NOx) and 10⁻¹ (primary PM2.5 in the
 * densest states). Reported, not blocking.
 */
export const PLAUSIBLE_DEATHS_PER_TONNE = { min: 1e-5, max: 0.5 } as const;

/**
 * The damage-factor table's invariants. An `error` is a sector × pollutant some contiguous state would have
 * no factor for (neither its own row nor a national one), so the rollup could not count its tonnes; zero
 * factors (a pollutant with no published figure, not counted), implausible magnitudes and regions that are
 * neither a contiguous state nor "US" are warnings.
 */
export function auditHealthDamageFactors(rows: readonly DamageFactor[]): AuditFinding[] {
  const table = 'health_damage_factors';
  if (rows.length === 0)
    return offendersFinding(table, 'not_empty', 'warning', 'no damage factors: no deaths can be estimated', [
      '(no rows)',
    ]);
  const pairs = EMISSION_SECTORS.flatMap((sector) =>
    HEALTH_POLLUTANTS.map((pollutant) => ({ sector, pollutant })),
  );
  const key = (r: Pick<DamageFactor, 'region' | 'sector' | 'pollutant'>) =>
    `${r.region}/${r.sector}/${r.pollutant}`;
  const { min, max } = PLAUSIBLE_DEATHS_PER_TONNE;
  return [
    ...offendersFinding(
      table,
      'every_state_sector_pollutant',
      'error',
      'sector × pollutant pairs without a national row or a row for every contiguous state and DC (states missing in brackets)',
      pairs.flatMap(({ sector, pollutant }) => {
        const missing = STATES.filter((s) => !damageFactorFor(rows, s, sector, pollutant));
        return missing.length === 0 ? [] : [`${sector}/${pollutant} [${missing.join(' ')}]`];
      }),
    ),
    ...offendersFinding(
      table,
      'not_counted',
      'warning',
      'factors of zero: no published figure, so these tonnes add no deaths',
      rows.filter((r) => r.deaths_per_tonne === 0).map(key),
    ),
    ...offendersFinding(
      table,
      'plausible_magnitude',
      'warning',
      `non-zero factors outside ${min}–${max} deaths per tonne (a unit slip?)`,
      rows
        .filter((r) => r.deaths_per_tonne !== 0 && (r.deaths_per_tonne < min || r.deaths_per_tonne > max))
        .map((r) => `${key(r)} ${r.deaths_per_tonne}`),
    ),
    ...offendersFinding(
      table,
      'known_region',
      'warning',
      'regions that are neither a contiguous state, DC nor "US" (never used)',
      rows.filter((r) => r.region !== 'US' && !(r.region in CONTIGUOUS_STATE_FIPS)).map(key),
    ),
  ];
}
