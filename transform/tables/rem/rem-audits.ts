import { HEALTH_POLLUTANTS } from '../../../schemas/health-data.ts';
import type { AuditFinding } from '../../../schemas/lake.ts';
import {
  CONTIGUOUS_STATE_FIPS,
  emissionFactorFor,
  type EmissionFactor,
  type EnergyRate,
  type ZipCounty,
} from '../../../schemas/rem-data.ts';
import { FUELS } from '../../../schemas/rem.ts';
import { greatCircleKm } from '../../../model/climate/assign-station.ts';
import { climateById } from '../../../model/climate/climate.ts';
import { offendersFinding } from '../audit-findings.ts';
import type { RemCountyRow } from '../../../schemas/rem-data.ts';

/**
 * The REM tables' invariants. An `error` is a gap that would leave an address of the contiguous US without
 * an answer (a state without counties, rates or factors, a ZIP pointing nowhere); the rest are warnings.
 * A table with no rows at all (the REM sources not declared) is one warning: incentives still publish.
 */

const STATES = Object.keys(CONTIGUOUS_STATE_FIPS);

const emptyTable = (table: string, what: string): AuditFinding[] =>
  offendersFinding(table, 'not_empty', 'warning', `no ${what}: the REM cannot answer`, ['(no rows)']);

/** Beyond this distance a county's station stands for its climate only loosely (reported, not blocking). */
export const FAR_STATION_KM = 800;

export function auditRemCounties(rows: readonly RemCountyRow[]): AuditFinding[] {
  const table = 'rem_counties';
  if (rows.length === 0) return emptyTable(table, 'counties');
  const states = new Set(rows.map((r) => r.state));
  const far = rows.filter((r) => {
    const station = climateById(r.station_id);
    return greatCircleKm(r.latitude, r.longitude, station.latitude, station.longitude) > FAR_STATION_KM;
  });
  return [
    ...offendersFinding(
      table,
      'every_state_has_counties',
      'error',
      'contiguous states (or DC) without any county',
      STATES.filter((s) => !states.has(s)),
    ),
    ...offendersFinding(
      table,
      'fips_in_state',
      'error',
      "counties whose FIPS code does not start with their state's",
      rows
        .filter((r) => !r.county_fips.startsWith(CONTIGUOUS_STATE_FIPS[r.state] ?? '??'))
        .map((r) => r.county_fips),
    ),
    ...offendersFinding(
      table,
      'station_zone',
      'warning',
      "counties whose station is of another climate zone (none of the county's zone is listed)",
      rows
        .filter((r) => climateById(r.station_id).climateZone !== r.climate_zone)
        .map((r) => `${r.county_fips} ${r.climate_zone}→${r.station_id}`),
    ),
    ...offendersFinding(
      table,
      'station_distance',
      'warning',
      `counties more than ${FAR_STATION_KM} km from their station`,
      far.map((r) => `${r.county_fips} ${r.name}, ${r.state} → ${r.station_id}`),
    ),
  ];
}

export function auditRemZipCounties(
  rows: readonly ZipCounty[],
  counties: readonly RemCountyRow[],
): AuditFinding[] {
  const table = 'rem_zip_counties';
  if (rows.length === 0) return emptyTable(table, 'ZIPs');
  const stateOf = new Map(counties.map((c) => [c.county_fips, c.state]));
  const contiguous = rows.filter((z) => z.state in CONTIGUOUS_STATE_FIPS);
  return [
    ...offendersFinding(
      table,
      'zip_has_known_county',
      counties.length === 0 ? 'warning' : 'error',
      'ZIPs of the contiguous US whose county is not in rem_counties',
      contiguous.filter((z) => !stateOf.has(z.county_fips)).map((z) => `${z.zip} → ${z.county_fips}`),
    ),
    ...offendersFinding(
      table,
      'zip_state_matches_county',
      'error',
      "ZIPs whose state is not their county's",
      contiguous
        .filter((z) => stateOf.has(z.county_fips) && stateOf.get(z.county_fips) !== z.state)
        .map((z) => `${z.zip} ${z.state} → ${z.county_fips}`),
    ),
  ];
}

export function auditRemEnergyRates(rows: readonly EnergyRate[]): AuditFinding[] {
  const table = 'rem_energy_rates';
  if (rows.length === 0) return emptyTable(table, 'energy rates');
  const have = new Set(rows.map((r) => `${r.state}/${r.fuel}`));
  const years = new Set(rows.map((r) => r.year));
  return [
    ...offendersFinding(
      table,
      'rate_for_every_state_and_fuel',
      'error',
      'contiguous state × fuel pairs without a rate',
      STATES.flatMap((s) => FUELS.map((f) => `${s}/${f}`)).filter((key) => !have.has(key)),
    ),
    ...offendersFinding(
      table,
      'one_year',
      'warning',
      'rates come from more than one year',
      years.size > 1 ? [...years].map(String) : [],
    ),
  ];
}

export function auditRemEmissionFactors(rows: readonly EmissionFactor[]): AuditFinding[] {
  const table = 'rem_emission_factors';
  if (rows.length === 0) return emptyTable(table, 'emission factors');
  const fossil = FUELS.filter((f) => f !== 'electricity');
  // Every pollutant the table gives for electricity (CO2e always; NOx, SO2 … when the health model's rows are there).
  const gridPollutants = [
    ...new Set(rows.filter((r) => r.fuel === 'electricity').map((r) => r.pollutant)),
  ].sort();
  return [
    ...offendersFinding(
      table,
      'co2e_for_every_fuel',
      'error',
      'fossil fuels without an on-site CO2e factor',
      fossil.filter(
        (fuel) => !rows.some((r) => r.fuel === fuel && r.pollutant === 'co2e' && r.basis === 'combustion'),
      ),
    ),
    ...offendersFinding(
      table,
      'co2e_for_every_state_electricity',
      'error',
      'contiguous states without an electricity CO2e factor (neither their own nor a national one)',
      STATES.filter((s) => !emissionFactorFor(rows, s, 'electricity', 'co2e')),
    ),
    ...offendersFinding(
      table,
      'electricity_national_fallback',
      'warning',
      'state × pollutant pairs whose electricity rate is the national one (no state row)',
      STATES.flatMap((s) =>
        gridPollutants
          .filter((p) => emissionFactorFor(rows, s, 'electricity', p)?.region === 'US')
          .map((p) => `${s}/${p}`),
      ),
    ),
    ...offendersFinding(
      table,
      'electricity_health_pollutants',
      'warning',
      'health pollutants some contiguous state has no electricity rate for (neither its own nor a national one): the health model counts no power-sector tonnes of them there (states in brackets)',
      HEALTH_POLLUTANTS.flatMap((p) => {
        const missing = STATES.filter((s) => !emissionFactorFor(rows, s, 'electricity', p));
        if (missing.length === 0) return [];
        return [`${p} [${missing.length === STATES.length ? 'every state' : missing.join(' ')}]`];
      }),
    ),
    ...offendersFinding(
      table,
      'electricity_is_grid_rate',
      'error',
      'electricity factors that are not a grid average or marginal rate',
      rows
        .filter((r) => r.fuel === 'electricity' && r.basis === 'combustion')
        .map((r) => `${r.region}/${r.pollutant}`),
    ),
  ];
}
