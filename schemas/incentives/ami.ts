/** Household sizes the API accepts, and for which income limits are precomputed. */
export const HOUSEHOLD_SIZES = [1, 2, 3, 4, 5, 6, 7, 8] as const;

/** Nearest $50, halves up (the reference rounds this way; HUD itself rounds up). */
const roundFiftyDollars = (amount: number): number => Math.round(amount / 50) * 50;

/**
 * HUD publishes limits for a 4-person household; other sizes are 10% less per person below 4 and 8% more
 * per person above it. The arithmetic order matters for exact agreement with the reference's values.
 */
export function adjustAmi(fourPersonLimit: number, householdSize: number): number {
  if (householdSize < 4) return roundFiftyDollars(fourPersonLimit * (1 - 0.1 * (4 - householdSize)));
  if (householdSize > 4) return roundFiftyDollars(fourPersonLimit * (1 + 0.08 * (householdSize - 4)));
  return roundFiftyDollars(fourPersonLimit);
}

/** The limit adjusted for every household size 1–8 (index 0 is size 1). */
export const amiBySize = (fourPersonLimit: number): number[] =>
  HOUSEHOLD_SIZES.map((size) => adjustAmi(fourPersonLimit, size));

export interface AmiFlags {
  is_under_80_ami: boolean;
  is_under_150_ami: boolean;
  is_over_150_ami: boolean;
}

/** The response's AMI flags; strict `<`, unlike the `<=` of ami-percentage income thresholds (as upstream). */
export function amiFlags(income: number, ami80: number, ami150: number): AmiFlags {
  const under150 = income < ami150;
  return { is_under_80_ami: income < ami80, is_under_150_ami: under150, is_over_150_ami: !under150 };
}
