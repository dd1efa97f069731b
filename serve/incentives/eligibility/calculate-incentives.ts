import type { AuthorityType, Item, OwnerStatus } from '../../../schemas/incentives/enums.ts';
import type { IncentivesData, Location, PreparedCandidate, StateCatalog } from '../incentives-data.ts';
import type { AmiFlags } from '../../../schemas/incentives/ami.ts';
import type { IncomeClass } from './income-class.ts';
import { geographyMayAdmit, isCandidateEligible, type RuleContext } from './incentive-rules.ts';
import { applyMassSave } from './mass-save.ts';
import { applyRelationships } from './relationships.ts';
import { stateIncentivesIncluded } from './states.ts';

/**
 * The catalog's candidates naming one of the geographies (or that have no authority to check), in file
 * order: the per-state index spares testing hundreds of other utilities' incentives per request.
 * Only the positions the index names are gathered and sorted, so the cost follows the handful that
 * serve the location, not the size of the state's catalog.
 */
export function candidatesServing(
  catalog: StateCatalog,
  geographyIds: readonly number[],
): PreparedCandidate[] {
  const lists = [catalog.unrestrictedCandidates];
  let count = catalog.unrestrictedCandidates.length;
  for (const id of geographyIds) {
    const list = catalog.candidatesByGeography.get(id);
    if (list !== undefined) {
      lists.push(list);
      count += list.length;
    }
  }
  const positions = new Int32Array(count);
  let at = 0;
  for (const list of lists) {
    positions.set(list, at);
    at += list.length;
  }
  positions.sort();
  const serving: PreparedCandidate[] = [];
  for (let i = 0; i < positions.length; i++) {
    if (i === 0 || positions[i] !== positions[i - 1]) serving.push(catalog.candidates[positions[i]!]!);
  }
  return serving;
}

/** The response order (compareIncentives), through ranks worked out at snapshot load. */
const bySortRank = (a: PreparedCandidate, b: PreparedCandidate) => a.sortRank - b.sortRank;

export interface CalculationRequest {
  ownerStatus: OwnerStatus;
  /** The household's income class (`incomeClass`): income, size and filing status matter only through it. */
  income: IncomeClass;
  authorityTypes?: readonly AuthorityType[] | undefined;
  items?: readonly Item[] | undefined;
  includeBetaStates: boolean;
  /** Geography ids of the requested electric / gas utility territories (already validated). */
  utilityGeographyIds: readonly number[];
  /** Echoed in `coverage.utility`. */
  utility?: string | undefined;
}

export interface Calculation extends AmiFlags {
  /** The catalog whose incentives were candidates, if the state's were included. */
  coveredState: StateCatalog | null;
  /** The state catalog (authorities, data partners), whether or not its incentives were included. */
  catalog: StateCatalog | undefined;
  incentives: PreparedCandidate[];
  /** Authorities of the returned non-federal incentives, in first-seen order, de-duplicated by id. */
  authorityEntries: string[];
}

function ruleContext(location: Location, request: CalculationRequest, today: string): RuleContext {
  return {
    state: location.state,
    geographyIds: [...request.utilityGeographyIds, ...location.geographyIds],
    ownerStatus: request.ownerStatus,
    income: request.income,
    evChargerEligible: location.evChargerEligible === true,
    today,
  };
}

/**
 * The calculator: candidate incentives (federal, then the state's if included), each tested by the
 * per-incentive rules, then the Mass Save rule (MA) and the relationships over everything eligible, and
 * only then the caller's authority-type and item filters, then the sort.
 */
export function calculateIncentives(
  data: IncentivesData,
  location: Location,
  request: CalculationRequest,
  today: string,
): Calculation {
  const catalog = data.states.get(location.state);
  const coveredState =
    catalog &&
    stateIncentivesIncluded(location.state, request.includeBetaStates, catalog.candidates.length > 0)
      ? catalog
      : null;
  const { income } = request;
  const ctx = ruleContext(location, request, today);

  const eligible = new Map<string, PreparedCandidate>();
  const candidates = coveredState
    ? [data.federal.candidates, candidatesServing(coveredState, ctx.geographyIds)]
    : [data.federal.candidates];
  for (const list of candidates) {
    for (const candidate of list) {
      if (isCandidateEligible(candidate, ctx)) eligible.set(candidate.id, candidate);
    }
  }
  if (location.state === 'MA') applyMassSave(eligible);
  if (coveredState) applyRelationships(eligible, coveredState.relationships);

  const types = request.authorityTypes;
  const items = request.items;
  const selected = [...eligible.values()].filter(
    (c) =>
      (!types || types.includes(c.authorityType)) && (!items || c.items.some((item) => items.includes(item))),
  );
  const authorityEntries = new Map<string, string>();
  for (const c of selected) {
    if (c.authority === null || c.authorityType === 'federal') continue;
    const authority = catalog?.authorities.get(c.authorityType)?.get(c.authority);
    if (authority) authorityEntries.set(c.authority, authority.entry);
  }
  return {
    is_under_80_ami: income.is_under_80_ami,
    is_under_150_ami: income.is_under_150_ami,
    is_over_150_ami: income.is_over_150_ami,
    coveredState,
    catalog,
    incentives: selected.sort(bySortRank),
    authorityEntries: [...authorityEntries.values()],
  };
}

/**
 * `base` (the calculation of `request`) with one more utility territory. A territory only makes more
 * candidates eligible, and only those naming it (StateCatalog.candidatesByGeography) whose geography test
 * it opens, so when none of them then passes the rules, the answer is `base`'s and is not computed again.
 */
export function calculateWithTerritory(
  data: IncentivesData,
  location: Location,
  request: CalculationRequest,
  today: string,
  base: Calculation,
  geographyId: number,
): Calculation {
  const widened = { ...request, utilityGeographyIds: [...request.utilityGeographyIds, geographyId] };
  const [without, withIt] = [ruleContext(location, request, today), ruleContext(location, widened, today)];
  const catalogs = base.coveredState ? [data.federal, base.coveredState] : [data.federal];
  const gainsOne = catalogs.some((catalog) =>
    (catalog.candidatesByGeography.get(geographyId) ?? []).some((position) => {
      const candidate = catalog.candidates[position]!;
      return geographyMayAdmit(candidate, without, geographyId) && isCandidateEligible(candidate, withIt);
    }),
  );
  return gainsOne ? calculateIncentives(data, location, widened, today) : base;
}
