import type { Amount } from '../../../schemas/incentives/records.ts';
import type { Location, StateCatalog } from '../incentives-data.ts';

/** The query parameters naming a location's utilities, which a request may leave out. */
export const UTILITY_PARAMETERS = ['utility', 'gas_utility'] as const;
export type UtilityParameter = (typeof UTILITY_PARAMETERS)[number];

/** What giving one utility serving the location would add to an answer. */
export interface UtilityGain {
  id: string;
  name: string;
  /** Incentives (or programs) the answer would have with this utility and has not now. */
  additional: number;
  /** The sum of the added incentives' dollar caps (an amount with no dollar cap adds nothing); 0 for programs. */
  additionalUpToUsd: number;
}

/** Per parameter left out, the utilities serving the location and what each would add. */
export type OmittedUtilities = Partial<Record<UtilityParameter, UtilityGain[]>>;

/**
 * The most an incentive can pay in dollars: a dollar amount's maximum (else its number), another kind's
 * maximum; 0 when nothing caps it in dollars (a percentage without a maximum).
 */
export function dollarCap(amount: Amount): number {
  if (amount.type === 'dollar_amount') return amount.maximum ?? amount.number;
  return amount.maximum ?? 0;
}

/**
 * For each utility parameter the request left out, the utilities serving the location and what each adds
 * to the answer (`answerWith` computes it with one more utility territory than the request gave); null when
 * giving none of them would add anything, so an answer that misses nothing says nothing more.
 * `gas_utility=none` is an answer ("no gas service"), not an omission.
 */
export function omittedUtilities<T extends { id: string }>(
  location: Location,
  catalog: StateCatalog,
  request: {
    given: Readonly<Partial<Record<UtilityParameter, string>>>;
    /** The answer computed with the utilities given. */
    answer: readonly T[];
  },
  answerWith: (addedUtilityGeographyId: number) => readonly T[],
  amountOf: (entry: T) => Amount | null,
): OmittedUtilities | null {
  const now = new Set(request.answer.map((entry) => entry.id));
  const cap = (entry: T) => {
    const amount = amountOf(entry);
    return amount === null ? 0 : dollarCap(amount);
  };
  const omitted: OmittedUtilities = {};
  for (const parameter of UTILITY_PARAMETERS) {
    if (request.given[parameter] !== undefined) continue;
    const [serving, known] =
      parameter === 'utility'
        ? [location.electricUtilities, catalog.electricUtilities]
        : [location.gasUtilities, catalog.gasUtilities];
    const gains = serving.flatMap((id) => {
      const utility = known.get(id);
      if (utility === undefined) return [];
      const added = answerWith(utility.id).filter((entry) => !now.has(entry.id));
      const upTo = added.reduce((sum, entry) => sum + cap(entry), 0);
      return [{ id, name: utility.name, additional: added.length, additionalUpToUsd: upTo }];
    });
    if (gains.some((gain) => gain.additional > 0)) omitted[parameter] = gains;
  }
  return Object.keys(omitted).length > 0 ? omitted : null;
}
