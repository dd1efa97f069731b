import {
  emissionFactorFor,
  type EmissionFactor,
  type GridEmissionFactor,
  type GridGeneration,
  type GridRegionRow,
  type LrmerProfile,
  type Pollutant,
} from '../../../schemas/rem-data.ts';
import { kgPerKwh } from '../../../model/savings/fuel-prices.ts';

/*
 * The long-run grid (issue: a heat pump bought now runs on the grid of the next 15 years, not today's).
 * CO2e: NREL Cambium 2024's mid-case levelized long-run marginal emission rate (LRMER) of the county's region.
 * NOx, SO2, PM2.5 and VOC, which Cambium does not publish: today's eGRID average rate of the state, times how
 * much of today's fossil share of the region's generation Cambium's mid-case leaves on average over the same
 * years (coal's share for SO2, which coal plants emit nearly all of). Same years and discounting as the LRMER,
 * so both describe one appliance's life.
 */

/**
 * The LRMER files' levelization, as NREL's ResStock states it for them (`resources/data/emissions/cambium/2024/
 * README.md`: start year 2027, 15 years, 3 % real discount rate); the generation shares are levelized alike.
 */
export const LONG_RUN = { startYear: 2027, years: 15, discountRate: 0.03 } as const;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;
const HEATING_SEASON_MONTHS: ReadonlySet<number> = new Set([11, 12, 1, 2, 3]);

/** Mean hourly rate over the months given, each month's 24 values counting once per day of the month. */
function meanOverMonths(profiles: readonly LrmerProfile[], months: (month: number) => boolean): number {
  let sum = 0;
  let hours = 0;
  for (const profile of profiles) {
    if (!months(profile.month)) continue;
    const days = DAYS_IN_MONTH[profile.month - 1]!;
    sum += days * profile.hourly_kg_per_mwh.reduce((a, b) => a + b, 0);
    hours += days * 24;
  }
  return sum / hours;
}

/** A region's projected share of some generation in a year, by linear interpolation between model years. */
function shareIn(rows: readonly GridGeneration[], year: number, of: (row: GridGeneration) => number): number {
  const at = (row: GridGeneration) => of(row) / row.generation_mwh;
  const after = rows.findIndex((row) => row.year >= year);
  if (after < 0) throw new Error(`no Cambium model year at or after ${year}`);
  const next = rows[after]!;
  if (next.year === year || after === 0) return at(next);
  const previous = rows[after - 1]!;
  const t = (year - previous.year) / (next.year - previous.year);
  return at(previous) + t * (at(next) - at(previous));
}

/**
 * The share's discounted average over the LONG_RUN years ÷ its value in the first model year: what fraction
 * of today's share is left, on average, over an appliance's life. Null when the first year's share is 0.
 */
export function levelizedShareRatio(
  generation: readonly GridGeneration[],
  of: (row: GridGeneration) => number,
): number | null {
  const rows = [...generation].sort((a, b) => a.year - b.year);
  const first = shareIn(rows, rows[0]!.year, of);
  if (first === 0) return null;
  let weighted = 0;
  let weights = 0;
  for (let i = 0; i < LONG_RUN.years; i++) {
    const weight = (1 + LONG_RUN.discountRate) ** -i;
    weighted += weight * shareIn(rows, LONG_RUN.startYear + i, of);
    weights += weight;
  }
  return weighted / weights / first;
}

const fossil = (row: GridGeneration) => row.coal_mwh + row.gas_cc_mwh + row.gas_ct_mwh + row.o_g_s_mwh;
const coal = (row: GridGeneration) => row.coal_mwh;

/**
 * One row per region that has both a full year of LRMER profiles and projected generation; a region missing
 * either is named in the error (the table's build fails rather than leave counties without a rate).
 */
export function gridRegionRows(
  profiles: readonly LrmerProfile[],
  generation: readonly GridGeneration[],
): GridRegionRow[] {
  const regions = [...new Set([...profiles, ...generation].map((r) => r.grid_region))].sort();
  return regions.map((region) => {
    const months = profiles.filter((p) => p.grid_region === region);
    const years = generation.filter((g) => g.grid_region === region);
    if (new Set(months.map((m) => m.month)).size !== 12)
      throw new Error(`grid region ${region}: the LRMER profiles cover ${months.length} months, not 12`);
    if (years.length === 0) throw new Error(`grid region ${region}: no projected generation`);
    return {
      grid_region: region,
      lrmer_co2e_kg_per_mwh: meanOverMonths(months, () => true),
      lrmer_heating_season_co2e_kg_per_mwh: meanOverMonths(months, (m) => HEATING_SEASON_MONTHS.has(m)),
      fossil_share_ratio: levelizedShareRatio(years, fossil)!,
      coal_share_ratio: levelizedShareRatio(years, coal),
      first_year: Math.min(...years.map((y) => y.year)),
      start_year: LONG_RUN.startYear,
      years: LONG_RUN.years,
      discount_rate: LONG_RUN.discountRate,
    };
  });
}

/** The electricity pollutants the grid rates cover: CO2e for REM, the rest for the health model. */
export const GRID_POLLUTANTS: readonly Pollutant[] = ['co2e', 'nox', 'so2', 'pm25', 'voc'];

/** What carries a pollutant's rate into the long run: SO2 comes from coal, the rest from all fossil units. */
function longRunRatio(region: GridRegionRow, pollutant: Pollutant): { ratio: number; what: string } {
  if (pollutant === 'so2' && region.coal_share_ratio !== null)
    return { ratio: region.coal_share_ratio, what: 'coal' };
  return { ratio: region.fossil_share_ratio, what: 'fossil' };
}

const round = (value: number) => Number(value.toPrecision(6));

/**
 * The electricity factors of every (state, grid region) the counties have, on both grid bases: today's
 * (the state's eGRID row, else the national one, as kg/kWh) and the long run's (module comment). A pair
 * without today's rate of a pollutant has no row of it on either basis (the audit says which).
 */
export function gridEmissionFactors(
  pairs: readonly { state: string; grid_region: string }[],
  regions: readonly GridRegionRow[],
  factors: readonly EmissionFactor[],
): GridEmissionFactor[] {
  const byRegion = new Map(regions.map((r) => [r.grid_region, r]));
  const seen = new Set<string>();
  const rows: GridEmissionFactor[] = [];
  for (const { state, grid_region } of pairs) {
    const key = `${state}/${grid_region}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const region = byRegion.get(grid_region);
    if (!region) throw new Error(`no long-run figures for grid region ${grid_region} (counties of ${state})`);
    for (const pollutant of GRID_POLLUTANTS) {
      const today = emissionFactorFor(factors, state, 'electricity', pollutant);
      if (!today) continue;
      const current = kgPerKwh(today);
      const common = { region: state, fuel: 'electricity' as const, pollutant, unit: 'kg/kWh', grid_region };
      rows.push({
        ...common,
        value: current,
        basis: today.basis,
        year: today.year,
        publisher: today.publisher,
        grid_emissions: 'current_average',
        method: `today's rate of ${today.region === state ? state : 'the US'} as the emission-factor table has it`,
      });
      if (pollutant === 'co2e') {
        rows.push({
          ...common,
          value: region.lrmer_co2e_kg_per_mwh / 1000,
          basis: 'long_run_marginal',
          year: LONG_RUN.startYear,
          publisher: `NREL Cambium 2024, mid-case, levelized long-run marginal CO2e rate of ${grid_region} (${LONG_RUN.startYear}–${LONG_RUN.startYear + LONG_RUN.years - 1}, ${LONG_RUN.discountRate * 100} % real; combustion and pre-combustion, end use), as NREL ResStock ships it`,
          grid_emissions: 'long_run',
          method: `mean of the 8,760 hourly rates (${round(region.lrmer_co2e_kg_per_mwh)} kg/MWh) ÷ 1000`,
        });
      } else {
        const { ratio, what } = longRunRatio(region, pollutant);
        rows.push({
          ...common,
          value: current * ratio,
          basis: 'long_run_average',
          year: LONG_RUN.startYear,
          publisher: `${today.publisher}; × NREL Cambium 2024 mid-case ${what} share of ${grid_region}'s generation`,
          grid_emissions: 'long_run',
          method: `today's rate × ${round(ratio)}: the ${what} share of ${grid_region}'s generation averaged over ${LONG_RUN.startYear}–${LONG_RUN.startYear + LONG_RUN.years - 1} (${LONG_RUN.discountRate * 100} % discount) ÷ its share in ${region.first_year}`,
        });
      }
    }
  }
  return rows;
}
