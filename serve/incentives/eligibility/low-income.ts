import { TERRITORIES, type FilingStatus } from '../../../schemas/incentives/enums.ts';
import type { LowIncomeThresholdRecord, PovertyLevelRecord } from '../../../schemas/incentives/records.ts';

export interface Household {
  income: number;
  size: number;
  taxFiling?: FilingStatus | undefined;
}

export interface IncomeLocation {
  state: string;
  /** FIPS codes of the counties the location overlaps. */
  countyFips: readonly string[];
  /** 80% / 150% AMI adjusted for the household's size. */
  ami80: number;
  ami150: number;
}

/** Poverty guideline tables by key ("AK", "HI", "other"). */
export type PovertyLevels = ReadonlyMap<string, PovertyLevelRecord>;

const hhsizeLimit = (bySize: Record<string, number>, size: number): number | undefined => {
  const limit = bySize[String(size)];
  return typeof limit === 'number' ? limit : undefined;
};

/** The household's poverty guideline; sizes above 8 add a fixed amount per person. */
export function povertyLevel(levels: PovertyLevels, state: string, size: number): number | undefined {
  const table = levels.get(state === 'AK' || state === 'HI' ? state : 'other');
  if (!table) return undefined;
  return size <= 8
    ? table.levels_by_hhsize[size]
    : table.levels_by_hhsize[8]! + (size - 8) * table.per_additional;
}

/**
 * Whether a household counts as low income under one threshold definition. Limits are inclusive. A
 * definition that cannot be applied (no filing status, no county limit, a territory for % FPL) says no.
 */
export function isLowIncome(
  threshold: LowIncomeThresholdRecord,
  household: Household,
  location: IncomeLocation,
  povertyLevels: PovertyLevels,
): boolean {
  const { income, size } = household;
  switch (threshold.type) {
    case 'hhsize': {
      const limit = hhsizeLimit(threshold.thresholds, size);
      return limit !== undefined && income <= limit;
    }
    case 'county-hhsize': {
      // The strictest limit of every county the location touches; any county without one (and no
      // "other" fallback) means the definition does not apply.
      if (location.countyFips.length === 0) return false;
      let strictest: number | undefined;
      for (const county of location.countyFips) {
        const bySize = threshold.thresholds[county] ?? threshold.thresholds.other;
        if (!bySize) return false;
        const limit = hhsizeLimit(bySize, size);
        if (limit === undefined) return false;
        strictest = strictest === undefined ? limit : Math.min(strictest, limit);
      }
      return strictest !== undefined && income <= strictest;
    }
    case 'filing-status': {
      const range = household.taxFiling ? threshold.thresholds[household.taxFiling] : undefined;
      return range !== undefined && range[0] <= income && income <= range[1];
    }
    case 'ami-percentage': {
      const { percentage } = threshold.thresholds;
      if (percentage === 80) return income <= location.ami80;
      if (percentage === 150) return income <= location.ami150;
      return false;
    }
    case 'fpl-percentage': {
      if (TERRITORIES.includes(location.state)) return false;
      const level = povertyLevel(povertyLevels, location.state, size);
      return level !== undefined && income <= threshold.thresholds.percentage * 0.01 * level;
    }
  }
}
